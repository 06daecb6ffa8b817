//! The hub's pages: the games in progress, a game to watch, a seat to play. Each embeds the web
//! player by `srcdoc` and starts it with seed 002's `init_spectator_player` or
//! `init_player_player`, the token built from the page's own address.

use std::sync::Arc;

use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Json, Response};
use serde::Deserialize;

use arbiter_i18n::Lang;

use crate::{Frame, Hub, Summary};

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The player as a site's pages embed it (`srcdoc`: the contest's game page, the hub's watch
/// and play pages): it takes orders only from its own page's origin (`self`: a `srcdoc`
/// frame's origin is its page's) and opens websockets only to that page's host
/// (player-web/README.md, "Embedding"), so that a page of another origin that opens one of
/// these pages can neither post its player a forged replay nor name it a websocket of its
/// own. The player's empty allow-list is filled in; a player without one (a `--player` file
/// of another build) gets this tag first in its head, where the player reads it. Applied
/// twice, it changes nothing more.
pub fn trusting_its_page(html: &str) -> String {
    const TRUSTING: &str = r#"<meta name="arbiter-origins" content="self" data-hubs="self">"#;
    const EMPTY: &str = r#"<meta name="arbiter-origins" content="">"#;
    if html.contains(TRUSTING) {
        html.to_string()
    } else if html.contains(EMPTY) {
        html.replacen(EMPTY, TRUSTING, 1)
    } else if html.contains("<head>") {
        html.replacen("<head>", &format!("<head>{TRUSTING}"), 1)
    } else {
        // No head to put it in: first, where the parser puts it in the head all the same.
        format!("{TRUSTING}{html}")
    }
}

/// JSON to embed in an inline `<script>`: `<`, `>` and `&` (and U+2028/U+2029, line ends to
/// older JavaScript) as `\u` escapes, so that no string in it can open or close a tag, a
/// comment or an escape of the HTML tokenizer (`<!--`, `<script`, `</script`). The value is
/// unchanged for JavaScript.
pub fn script_json(value: &impl serde::Serialize) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "<style>:root{color-scheme:light dark}body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:12px 16px}\
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #8884}\
.muted{color:#888}</style>";

/// The hub's style for what it puts on a page, inside a site's frame too.
const CONTENT_STYLE: &str =
    "<style>iframe{width:100%;height:600px;border:1px solid #8884;border-radius:8px}</style>";

/// The frame a site put on this request (a contest's header for the signed-in user), if any,
/// and the language of the page: the site's, else the browser's (`Accept-Language`).
pub struct RequestFrame(Option<Frame>, Lang);

impl<S: Send + Sync> FromRequestParts<S> for RequestFrame {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let frame = parts.extensions.get::<Frame>().cloned();
        let lang = match &frame {
            Some(f) => f.lang,
            None => parts
                .headers
                .get(axum::http::header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language)
                .unwrap_or_default(),
        };
        Ok(RequestFrame(frame, lang))
    }
}

fn page(frame: &RequestFrame, title: &str, body: &str) -> Response {
    if let Some(frame) = &frame.0 {
        let before = frame.before.replace(Frame::TITLE, &escape(title));
        return Html(format!("{before}{CONTENT_STYLE}{body}{}", frame.after)).into_response();
    }
    Html(format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title>{STYLE}{CONTENT_STYLE}</head><body>{body}</body></html>",
        escape(title),
        lang = frame.1.tag(),
    ))
    .into_response()
}

pub async fn list(State(hub): State<Arc<Hub>>, frame: RequestFrame) -> Response {
    let lang = frame.1;
    let body = list_body(lang, &hub.summaries());
    let title = lang.t("live-title");
    page(
        &frame,
        &title,
        &format!(
            "<meta http-equiv=\"refresh\" content=\"5\"><h1>{}</h1>{body}<p class=\"muted\"><a href=\"/live/games.json\">{}</a></p>",
            escape(&title),
            escape(&lang.t("live-json")),
        ),
    )
}

/// The list's games: those being played, then those finished.
fn list_body(lang: Lang, games: &[Summary]) -> String {
    // A contest's titles already name the players.
    let players_column = games
        .iter()
        .any(|g| !g.title.contains(&g.players.join(" vs ")));
    // Games being played apart from finished ones, the oldest first: workers finish games out
    // of order, and one list by number made a game in progress look stuck among finished ones.
    let (mut playing, finished): (Vec<&Summary>, Vec<&Summary>) =
        games.iter().partition(|g| !g.finished);
    playing.sort_by_key(|g| g.id);
    let t = |key: &str| escape(&lang.t(key));
    if games.is_empty() {
        format!("<p>{}</p>", t("live-none"))
    } else {
        let playing_part = if playing.is_empty() {
            format!("<p>{}</p>", t("live-none-playing"))
        } else {
            games_table(lang, &playing, players_column)
        };
        let mut body = format!(
            "<h2>{}</h2>{playing_part}",
            escape(&lang.ta("live-playing-heading", &[("n", playing.len().into())]))
        );
        if !finished.is_empty() {
            body.push_str(&format!(
                "<h2>{}</h2>{}",
                escape(&lang.ta("live-finished-heading", &[("n", finished.len().into())])),
                games_table(lang, &finished, players_column)
            ));
        }
        body
    }
}

/// A game's status on the list: its move while it is played, else its result.
fn status(lang: Lang, g: &Summary) -> String {
    match (&g.reason, &g.result) {
        _ if !g.finished => lang.ta("live-playing", &[("move", g.moves.into())]),
        (Some(r), _) => {
            let reason = arbiter_i18n::verdict::reason(lang, r);
            match &g.winner {
                Some(name) => lang.ta(
                    "live-result-wins",
                    &[
                        ("name", name.as_str().into()),
                        ("reason", reason.as_str().into()),
                    ],
                ),
                None => lang.ta("live-result-draw", &[("reason", reason.as_str().into())]),
            }
        }
        (None, Some(r)) => r.clone(),
        (None, None) => lang.t("live-finished"),
    }
}

fn games_table(lang: Lang, games: &[&Summary], players_column: bool) -> String {
    let mut rows = String::new();
    for g in games {
        let players = if players_column {
            format!("<td>{}</td>", escape(&g.players.join(" vs ")))
        } else {
            String::new()
        };
        // Each thing once: the title (which numbers the game) is the link to watch it.
        rows.push_str(&format!(
            "<tr><td><a href=\"/live/{id}\">{title}</a></td>{players}<td>{status}</td></tr>",
            id = g.id,
            title = escape(&arbiter_i18n::machine::game_title(lang, &g.title)),
            status = escape(&status(lang, g)),
        ));
    }
    let t = |key: &str| escape(&lang.t(key));
    let players_head = if players_column {
        format!("<th>{}</th>", t("live-players"))
    } else {
        String::new()
    };
    format!(
        "<div class=\"scroll\"><table><thead><tr><th>{}</th>{players_head}<th>{}</th></tr></thead><tbody>{rows}</tbody></table></div>",
        t("live-game"),
        t("live-status"),
    )
}

pub async fn list_json(State(hub): State<Arc<Hub>>) -> Response {
    Json(hub.summaries()).into_response()
}

/// The player in an iframe and the script that starts it with `message` (built from the
/// page's address) and the players' names.
fn player_page(
    hub: &Hub,
    frame: &RequestFrame,
    title: &str,
    heading: &str,
    init: &str,
    names: &[String],
) -> Response {
    let lang = frame.1;
    let t = |key: &str| escape(&lang.t(key));
    let Some(player) = &hub.player else {
        let body = format!(
            "<h1>{}</h1><p>{}</p>",
            t("live-no-player"),
            escape(&lang.ta(
                "live-no-player-build",
                &[
                    ("script", "bash scripts/build-web.sh".into()),
                    ("option", "--player".into())
                ]
            )),
        );
        return page(frame, title, &body);
    };
    let nonce = frame
        .0
        .as_ref()
        .and_then(|f| f.nonce.as_deref())
        .map_or_else(String::new, |n| format!(" nonce=\"{}\"", escape(n)));
    let body = format!(
        "<h1>{heading}</h1><p class=\"muted\" id=\"status\" aria-live=\"polite\">{connecting}</p>\
         <iframe id=\"player\" title=\"{frame_title}\" srcdoc=\"{srcdoc}\"></iframe>\
         <p class=\"muted\"><a href=\"/live\">{all}</a></p>\
         <script{nonce}>\"use strict\";(()=>{{const f=document.getElementById(\"player\");\
         const base=location.origin.replace(/^http/,\"ws\")+\"/live/ws\";\
         f.addEventListener(\"load\",()=>{{const w=f.contentWindow;{init}\
         w.postMessage({{message:\"load_players\",players:{names}}},location.origin);\
         document.getElementById(\"status\").textContent=\"\";}});\
         window.addEventListener(\"message\",(e)=>{{if(e.source!==f.contentWindow||!e.data)return;\
         if(e.data.message===\"resized\"&&e.data.height>0)f.style.height=Math.min(e.data.height+4,2000)+\"px\";\
         if(e.data.message===\"error\")document.getElementById(\"status\").textContent={error}+e.data.reason;}});}})();</script>",
        heading = heading,
        connecting = t("live-connecting"),
        frame_title = t("live-frame-title"),
        all = t("live-all"),
        error = script_json(&lang.t("live-error")),
        srcdoc = escape(&trusting_its_page(player).replacen(
            "<html lang=\"en\">",
            &format!("<html lang=\"{}\">", lang.tag()),
            1
        )),
        names = script_json(&names),
        init = init,
    );
    page(frame, title, &body)
}

pub async fn watch(
    State(hub): State<Arc<Hub>>,
    frame: RequestFrame,
    Path(id): Path<u64>,
) -> Response {
    let lang = frame.1;
    let Some(game) = hub.game(id) else {
        let body = format!(
            "<h1>{}</h1><p><a href=\"/live\">{}</a></p>",
            escape(&lang.t("live-no-such-game")),
            escape(&lang.t("live-games-link")),
        );
        let page = page(&frame, &lang.t("live-not-found"), &body);
        return (StatusCode::NOT_FOUND, page).into_response();
    };
    let names = game.lock().players.clone();
    let init = format!(
        "w.postMessage({{message:\"init_spectator_player\",token:btoa(base+\"/_{id}\")}},location.origin);"
    );
    let title = arbiter_i18n::machine::game_title(lang, &game.title);
    player_page(
        &hub,
        &frame,
        &title,
        &escape(&lang.ta("live-watching", &[("title", (&title).into())])),
        &init,
        &names,
    )
}

#[derive(Deserialize)]
pub struct PlayQuery {
    seat: usize,
    key: String,
}

pub async fn play(
    State(hub): State<Arc<Hub>>,
    frame: RequestFrame,
    Path(id): Path<u64>,
    Query(q): Query<PlayQuery>,
) -> Response {
    let lang = frame.1;
    let Some(game) = hub.game(id) else {
        let body = format!("<h1>{}</h1>", escape(&lang.t("live-no-such-game")));
        let page = page(&frame, &lang.t("live-not-found"), &body);
        return (StatusCode::NOT_FOUND, page).into_response();
    };
    let valid = q.seat < arbiter_engine::Seat::MAX
        && q.key.len() == 22
        && q.key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        let body = format!("<h1>{}</h1>", escape(&lang.t("live-bad-link")));
        let page = page(&frame, &lang.t("live-bad-link-title"), &body);
        return (StatusCode::BAD_REQUEST, page).into_response();
    }
    let names = game.lock().players.clone();
    let init = format!(
        "w.postMessage({{message:\"init_player_player\",token:btoa(base+\"/{id}.{key}/{seat}\")}},location.origin);",
        key = q.key,
        seat = q.seat
    );
    let title = arbiter_i18n::machine::game_title(lang, &game.title);
    // Two seats are first and second; more are numbered from 1, as the command prints them.
    // The players are named once the game is set up, after the person opens this page: a
    // seat past the second says the game has more than two before that.
    let heading = escape(&match (names.len() > 2 || q.seat > 1, q.seat) {
        (false, 0) => lang.ta("live-you-play-first", &[("title", (&title).into())]),
        (false, _) => lang.ta("live-you-play-second", &[("title", (&title).into())]),
        (true, seat) => lang.ta(
            "live-you-play-seat",
            &[("title", (&title).into()), ("seat", (seat + 1).into())],
        ),
    });
    player_page(&hub, &frame, &title, &heading, &init, &names)
}

#[cfg(test)]
mod tests {
    use super::{list_body, trusting_its_page};
    use crate::Summary;
    use arbiter_i18n::Lang;

    fn summary(id: u64, finished: bool) -> Summary {
        Summary {
            id,
            title: format!("game {id}: a vs b"),
            players: vec!["a".into(), "b".into()],
            moves: 7,
            finished,
            result: None,
            reason: None,
            winner: None,
            human_seats: Vec::new(),
        }
    }

    #[test]
    fn games_in_progress_are_listed_apart_from_finished_ones_oldest_first() {
        // As the hub gives them, newest first: 5 and 2 are being played, 4, 3 and 1 are over.
        let games: Vec<Summary> = [(5, false), (4, true), (3, true), (2, false), (1, true)]
            .into_iter()
            .map(|(id, f)| summary(id, f))
            .collect();
        let body = list_body(Lang::En, &games);
        let (playing, finished) = body.split_once("Finished (3)").expect(&body);
        assert!(playing.contains("Being played (2)"), "{body}");
        let at = |part: &str, id: u64| {
            part.find(&format!("href=\"/live/{id}\""))
                .unwrap_or(usize::MAX)
        };
        assert!(
            at(playing, 2) < at(playing, 5) && at(playing, 5) < usize::MAX,
            "{body}"
        );
        for id in [1, 3, 4] {
            assert_eq!(at(playing, id), usize::MAX, "game {id} is over: {body}");
            assert!(at(finished, id) < usize::MAX, "{body}");
        }
        // Nothing being played: said so, above the finished games.
        let over: Vec<Summary> = vec![summary(1, true)];
        let body = list_body(Lang::ZhCn, &over);
        assert!(
            body.contains("当前没有正在进行的对局") && body.contains("已结束（1）"),
            "{body}"
        );
    }

    const TRUSTING: &str = r#"<meta name="arbiter-origins" content="self" data-hubs="self">"#;

    #[test]
    fn the_player_is_told_to_trust_its_page_alone() {
        let player = r#"<html lang="en"><head><meta name="arbiter-origins" content=""><title>p</title></head></html>"#;
        let told = trusting_its_page(player);
        assert_eq!(
            told,
            format!(r#"<html lang="en"><head>{TRUSTING}<title>p</title></head></html>"#)
        );
        // Told twice, it is the same page.
        assert_eq!(trusting_its_page(&told), told);
        // A player of another build, whose tag lists any origins: ours comes first in its head,
        // where the player reads it (the first tag of that name).
        let other = r#"<html><head><meta name="arbiter-origins" content="*"></head></html>"#;
        let told = trusting_its_page(other);
        assert!(
            told.starts_with(&format!("<html><head>{TRUSTING}<meta")),
            "{told}"
        );
    }
}
