//! What a student needs before the first submission: the protocol's page (from
//! docs/protocols/, carried by the binary), a starter bot per language (the sample bots,
//! server::samples) and the limits in words.

use std::time::Duration;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use arbiter_match::protocol::ProtocolKind;

use crate::auth::Viewer;
use crate::error::AppError;
use crate::pages::{render, Layout};
use crate::protocol_docs;
use crate::state::Shared;

/// One language as the submit page offers it.
pub struct LanguageHelp {
    pub key: String,
    pub name: String,
    pub protocol: &'static str,
    /// Whether a starter bot exists for it.
    pub starter: bool,
}

/// Every language of the contest with its protocol and starter.
pub fn languages(state: &Shared) -> Vec<LanguageHelp> {
    state
        .contest
        .file
        .languages
        .iter()
        .map(|(key, lang)| {
            let protocol = protocol_of(state, key);
            LanguageHelp {
                key: key.clone(),
                name: lang.name.clone(),
                protocol: protocol.name(),
                starter: crate::samples::starter(protocol, &lang.file).is_some(),
            }
        })
        .collect()
}

/// A module game's module as the submit page offers it: its file, where the site serves it,
/// and the command that tries a bot on it.
pub struct ModuleHelp {
    pub file: String,
    pub url: String,
    pub command: String,
}

pub fn module_help(state: &Shared) -> Option<ModuleHelp> {
    let m = state.contest.game.game.as_module()?;
    let file = format!("{}.wasm", m.module.name);
    let config = match m.config.as_str() {
        "{}" => String::new(),
        c => format!(" --config '{c}'"),
    };
    Some(ModuleHelp {
        url: format!("/modules/{}.wasm", m.module.sha256),
        command: format!("arbiter match {file}{config} ./my_bot builtin:random"),
        file,
    })
}

/// The environment variables that name the game to a student's bot (docs/protocols.md; a
/// module game's seed is not one of them).
pub fn env_vars(state: &Shared) -> Vec<&'static str> {
    use arbiter_match::bot_env::{GAME_VAR, MODULE_CONFIG_VAR, RULE_VAR, SIZE_VAR};
    match state.contest.game.game.as_module() {
        Some(_) => vec![GAME_VAR, MODULE_CONFIG_VAR],
        None => vec![GAME_VAR, SIZE_VAR, RULE_VAR],
    }
}

fn protocol_of(state: &Shared, language: &str) -> ProtocolKind {
    state
        .contest
        .protocols
        .get(language)
        .copied()
        .unwrap_or(state.contest.game.protocol)
}

/// The contest's limits as a student reads them: "5 s a move, 180 s a game in all, 350 MB of
/// memory".
pub fn limits_in_words(state: &Shared) -> String {
    use crate::lang::{t, ta};
    let l = state.contest.file.limits.apply(&state.contest.game.game);
    let mut parts = Vec::new();
    match l.time.per_move {
        Some(d) => parts.push(ta("limits-per-move", &[("time", secs(d).into())])),
        None => parts.push(t("limits-no-per-move")),
    }
    match l.time.per_game {
        Some(d) => parts.push(ta("limits-per-game", &[("time", secs(d).into())])),
        None => parts.push(t("limits-no-per-game")),
    }
    match l.memory_bytes {
        Some(b) => parts.push(ta("limits-memory", &[("mb", (b >> 20).into())])),
        None => parts.push(t("limits-no-memory")),
    }
    let ponder = t(if l.ponder {
        "limits-ponder"
    } else {
        "limits-no-ponder"
    });
    format!("{}{ponder}", parts.join(&t("limits-separator")))
}

/// "5 s", "1.5 s", "250 ms".
fn secs(t: Duration) -> String {
    let ms = t.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", t.as_secs_f64())
    }
}

#[derive(Template)]
#[template(path = "protocol.html")]
struct ProtocolPage {
    l: Layout,
    body: String,
}

/// `/protocols/{name}`: the protocol's page for students, in the viewer's language
/// (docs/protocols/{en,zh-CN}, server::protocol_docs).
pub async fn protocol(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    Path(name): Path<String>,
) -> Result<Response, AppError> {
    let kind = ProtocolKind::ALL
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| {
            AppError::NotFound(crate::lang::ta(
                "err-protocol",
                &[("name", name.as_str().into())],
            ))
        })?;
    let lang = crate::lang::current();
    let page = ProtocolPage {
        l: Layout::new(
            &state,
            viewer.as_ref(),
            protocol_docs::title(kind, lang),
            "submit",
        ),
        body: protocol_docs::to_html(&protocol_docs::markdown(kind, lang)),
    };
    render(&page)
}

/// `/starters/{language}`: the starter bot for a language of this contest, as its file.
pub async fn starter(
    State(state): State<Shared>,
    Path(language): Path<String>,
) -> Result<Response, AppError> {
    let lang = state.contest.file.languages.get(&language).ok_or_else(|| {
        AppError::NotFound(crate::lang::ta(
            "err-language",
            &[("language", language.as_str().into())],
        ))
    })?;
    let sample =
        crate::samples::starter(protocol_of(&state, &language), &lang.file).ok_or_else(|| {
            AppError::NotFound(crate::lang::ta(
                "err-starter",
                &[("language", lang.name.as_str().into())],
            ))
        })?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", lang.file),
            ),
        ],
        with_protocol_link(sample.text, protocol_of(&state, &language), &lang.file),
    )
        .into_response())
}

/// A starter bot's source with a first comment naming its protocol's page on this site (after
/// a `#!` line, which must stay first).
fn with_protocol_link(text: &str, protocol: ProtocolKind, file: &str) -> String {
    let mark = if file.ends_with(".py") { "#" } else { "//" };
    let note = format!(
        "{mark} {}\n",
        crate::lang::ta(
            "starter-protocol-note",
            &[("path", format!("/protocols/{}", protocol.name()).into())]
        )
    );
    match text.strip_prefix("#!").and_then(|_| text.split_once('\n')) {
        Some((shebang, rest)) => format!("{shebang}\n{note}{rest}"),
        None => format!("{note}{text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_starter_names_its_protocol_page_after_its_shebang() {
        let py = with_protocol_link(
            "#!/usr/bin/env python3\nimport sys\n",
            ProtocolKind::Kit,
            "main.py",
        );
        let lines: Vec<&str> = py.lines().collect();
        assert_eq!(lines[0], "#!/usr/bin/env python3");
        assert!(
            lines[1].starts_with("# ") && lines[1].contains("/protocols/kit"),
            "{py}"
        );
        assert_eq!(lines[2], "import sys");
        let c = with_protocol_link("#include <stdio.h>\n", ProtocolKind::Reversi, "main.c");
        assert!(
            c.starts_with("// ")
                && c.lines()
                    .next()
                    .unwrap_or_default()
                    .contains("/protocols/reversi")
        );
    }

    #[test]
    fn times_read_as_people_say_them() {
        assert_eq!(secs(Duration::from_millis(5000)), "5 s");
        assert_eq!(secs(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(secs(Duration::from_millis(250)), "250 ms");
    }
}
