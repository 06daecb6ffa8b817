//! The live hub with N seats and hidden information (issue 35, parts 4 and 6): a person on
//! any seat of a module game against bots, driven over the websocket as the web player does.
//! A person's stream shows only what their seat sees, the spectators' the public view while
//! the game runs and the full view once it is over, and no seed is ever sent.

use std::path::Path;
use std::time::Duration;

use arbiter_engine::replay::Replay;
use arbiter_engine::{Seat, Viewer};
use arbiter_live::token;
use serde_json::{json, Value};

use crate::live::{connect, free_port, next, send, stderr_lines, Socket};

/// A match seed of 19 digits: no seed drawn from it turns up by chance in a message.
const SEED: &str = "1234567890123456789";

/// `arbiter match MODULE --config CONFIG SEATS... --games 1 --live ADDR -o OUT` with generous
/// clocks; its stderr, line by line.
fn module_match(
    module: &Path,
    config: &str,
    seats: &[&str],
    port: u16,
    out: &Path,
    extra: &[&str],
) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .arg(module)
        .args(["--config", config, "--move-time", "20000", "--seed", SEED])
        .args(seats)
        .args(["--games", "1", "--quiet"])
        .args(extra)
        .args(["--live", &format!("127.0.0.1:{port}"), "-o"])
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let rx = stderr_lines(&mut child);
    (child, rx)
}

/// The key of the play link of `seat` in live game 1, from the command's stderr.
fn seat_key(rx: &std::sync::mpsc::Receiver<String>, seat: usize) -> String {
    seat_link(rx, seat).0
}

/// The key of the play link of `seat` in live game 1, and the lines before it.
fn seat_link(rx: &std::sync::mpsc::Receiver<String>, seat: usize) -> (String, Vec<String>) {
    let wanted = format!("/live/1/play?seat={seat}&key=");
    let mut seen = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("no play link for seat {seat} in {seen:#?}"));
        if let Some(at) = line.find(&wanted) {
            return (line[at + wanted.len()..].trim().to_string(), seen);
        }
        seen.push(line);
    }
}

/// What one socket saw: every message as text until the game's end, the positions and moves
/// of the last history and what followed it, and the history that came after the end.
#[derive(Default)]
struct Seen {
    before_end: Vec<String>,
    positions: Vec<Value>,
    moves: Vec<Value>,
    sent: Vec<String>,
    after_end: Option<Value>,
}

/// The contents of a `history` or a single new content.
fn contents(m: &Value) -> Vec<Value> {
    let list = match m["request"].as_str() {
        Some("history") => m["content"].as_array().cloned().unwrap_or_default(),
        Some("action" | "watch") => vec![m["content"].clone()],
        _ => Vec::new(),
    };
    list.iter()
        .map(|c| serde_json::from_str(c.as_str().unwrap()).unwrap())
        .collect()
}

/// Follows a socket to the end of the game and the full history after it; when `seat` is
/// given (with its token), plays it: the first legal move whenever its position lists them
/// (a turn of its own, or a simultaneous turn it is a mover of).
async fn follow(ws: &mut Socket, seat: Option<(usize, &str)>) -> Seen {
    follow_for(ws, seat, usize::MAX).await
}

/// [`follow`] until `plies` plies are shown (or the end).
async fn follow_for(ws: &mut Socket, seat: Option<(usize, &str)>, plies: usize) -> Seen {
    let mut seen = Seen::default();
    let mut acted_at = usize::MAX;
    let mut ended = false;
    loop {
        let Some(m) = next(ws).await else { break };
        if m["request"] == "error" && is_moved_on(&m) {
            continue;
        }
        if m["request"] == "error" {
            let kinds: Vec<String> = seen
                .before_end
                .iter()
                .map(|t| t.chars().take(120).collect())
                .collect();
            panic!("refused: {m} after {kinds:#?} (sent {:?})", seen.sent);
        }
        if ended {
            if m["request"] == "history" {
                seen.after_end = Some(m);
                break;
            }
            continue;
        }
        seen.before_end.push(m.to_string());
        if m["request"] == "history" {
            seen.positions.clear();
            seen.moves.clear();
        }
        for c in contents(&m) {
            match c["type"].as_str() {
                Some("start") => seen.positions.push(c["position"].clone()),
                Some("move") => {
                    seen.positions.push(c["position"].clone());
                    seen.moves.push(c["move"].clone());
                }
                Some("end") => ended = true,
                other => panic!("unknown content {other:?}"),
            }
        }
        if seen.moves.len() >= plies {
            break;
        }
        let (Some((me, tok)), Some(p)) = (seat, seen.positions.last()) else {
            continue;
        };
        let ply = seen.positions.len() - 1;
        let mine = p["to_move"] == me || p["chooser"] == me;
        if ended || acted_at == ply || !mine || !p["own_forced"].is_null() {
            continue;
        }
        let mv = p["legal"][0]
            .as_str()
            .unwrap_or_else(|| panic!("a person's position lists its moves: {p}"))
            .to_string();
        assert!(
            p["clicks"].is_array(),
            "a person's position says how to click: {p}"
        );
        // The ply it was chosen at, as the player sends it: a position the game has left
        // (a game taken up runs through its earlier plies) refuses it.
        send(
            ws,
            json!({"request": "action", "token": tok, "content": mv, "ply": ply}),
        )
        .await;
        seen.sent.push(mv);
        acted_at = ply;
    }
    seen
}

/// Reads `ws` until at least `plies` plies are shown and the newest position lists `seat`'s
/// choices; the plies seen then.
async fn until_seat_to_move(ws: &mut Socket, seat: usize, at_least: usize) -> usize {
    let mut plies = 0;
    loop {
        let m = next(ws).await.expect("the game goes on");
        if m["request"] == "history" {
            plies = 0;
        }
        let mut last = Value::Null;
        for c in contents(&m) {
            plies += usize::from(c["type"] == "move");
            last = c["position"].clone();
        }
        if plies >= at_least && last["to_move"] == seat && last["legal"].is_array() {
            return plies;
        }
    }
}

/// The hub's refusal of a move chosen in a position the game has left.
fn is_moved_on(m: &Value) -> bool {
    m["content"]
        .as_str()
        .is_some_and(|c| c.contains("the game has moved on"))
}

/// The view of ply `k` of `saved` as `viewer` sees it.
fn view_at(saved: &Replay, k: usize, viewer: Viewer) -> Value {
    let g = saved.rebuild().unwrap();
    let g = g.frame(k).unwrap();
    serde_json::from_str(&g.as_module().unwrap().view(viewer)).unwrap()
}

/// Every seed the game's followers must not learn: the match's, the game's, each bot's.
fn assert_no_seed(seen: &[String], saved: &Replay) {
    let game = saved.meta.seed.expect("the saved replay keeps its seed");
    let mut seeds = vec![SEED.parse::<u64>().unwrap(), game];
    seeds.extend(Seat::all(saved.players.len()).map(|s| arbiter_match::game::bot_seed(game, s)));
    seeds.extend(saved.game.chance_seed());
    assert!(!seen.is_empty());
    for seed in seeds.iter().map(u64::to_string) {
        assert!(
            seen.iter().all(|m| !m.contains(&seed)),
            "seed {seed} sent live"
        );
    }
}

/// The moves `seat` chose (its forced ones left out: the referee played them), in any ply.
fn chosen_by(saved: &Replay, seat: usize) -> Vec<String> {
    saved
        .moves
        .iter()
        .flat_map(|m| m.records())
        .filter(|r| r.seat.index() == seat && r.time_ms.is_some())
        .map(|r| r.mv.clone())
        .collect()
}

/// Opens seat `seat`'s socket with `key` and sends its `connect`.
async fn seat_socket(port: u16, key: &str, seat: usize) -> (Socket, String) {
    let base = format!("ws://127.0.0.1:{port}/live/ws");
    let tok = token::seat(&base, 1, key, seat);
    let mut ws = connect(&format!("{base}/1.{key}/{seat}")).await;
    send(&mut ws, json!({"request": "connect", "token": tok})).await;
    (ws, tok)
}

async fn spectator_socket(port: u16) -> Socket {
    let base = format!("ws://127.0.0.1:{port}/live/ws");
    let mut ws = connect(&format!("{base}/_1")).await;
    let tok = token::spectator(&base, 1);
    send(&mut ws, json!({"request": "connect", "token": tok})).await;
    ws
}

/// The next `error` on `ws`, skipping other messages.
async fn next_error(ws: &mut Socket) -> Value {
    loop {
        let m = next(ws).await.expect("an error before the socket closes");
        if m["request"] == "error" {
            return m;
        }
    }
}

/// Two bots and Ada on the third seat.
const ADA_ON_SEAT_TWO: [&str; 3] = ["builtin:random", "builtin:random", "human:Ada"];

/// The Dou Dizhu module, built, and known to this process's host (for the saved replay's
/// views).
fn dou_dizhu() -> std::path::PathBuf {
    let module = arbiter_kit_host::build::game_module("game-dou-dizhu").unwrap();
    arbiter_kit_host::host::register_file(&module).unwrap();
    arbiter_kit_host::host::install();
    module
}

/// Dou Dizhu, three seats, Ada on the third (seat 2) against two bots: her stream shows her
/// own hand and the others' counts only (the module's view for her seat, ply by ply), the
/// spectators' no hand while the game runs and every hand in the history sent after the end;
/// no seed is sent; a seat taken from a frame's token or another seat's path is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_person_on_seat_two_of_dou_dizhu_sees_only_their_own_hand() {
    let module = dou_dizhu();
    let (port, out) = (free_port(), tempfile::tempdir().unwrap());
    let seats = ADA_ON_SEAT_TWO;
    let (mut child, rx) = module_match(&module, "{}", &seats, port, out.path(), &[]);
    let key = seat_key(&rx, 2);
    // The game waits for Ada: the spectator is there from the start.
    let mut watcher = spectator_socket(port).await;
    let spectator = tokio::spawn(async move { follow(&mut watcher, None).await });
    // Ada's key opens no other seat: the seat is the token's, checked against its secret.
    let (mut stolen, _) = seat_socket(port, &key, 0).await;
    let refused = next_error(&mut stolen).await;
    assert!(
        refused["content"].as_str().unwrap().contains("not valid"),
        "{refused}"
    );
    // A frame naming another seat (its token, or a seat field) plays nothing for it: sent
    // from a second tab of Ada's, whose messages are not followed.
    let (mut tab, _) = seat_socket(port, &key, 2).await;
    let base = format!("ws://127.0.0.1:{port}/live/ws");
    let forged = token::seat(&base, 1, &key, 0);
    send(
        &mut tab,
        json!({"request": "action", "token": forged, "content": "pass", "seat": 0}),
    )
    .await;
    let refused = next_error(&mut tab).await;
    let said = refused["content"].as_str().unwrap();
    assert!(said.contains("not this seat's"), "{refused}");
    drop(tab);
    let (mut ws, tok) = seat_socket(port, &key, 2).await;
    let ada = follow(&mut ws, Some((2, &tok))).await;
    let watched = spectator.await.unwrap();
    assert!(child.wait().unwrap().success());
    let text = std::fs::read_to_string(out.path().join("game-0001.json")).unwrap();
    let saved = Replay::from_json(&text).unwrap();
    assert_eq!(saved.players[2].name, "Ada");
    let hers = chosen_by(&saved, 2);
    assert!(!hers.is_empty(), "Ada played");
    assert_eq!(hers, ada.sent, "her moves are the ones she sent");
    assert_no_seed(&ada.before_end, &saved);
    assert_no_seed(&watched.before_end, &saved);
    // The check can fail: at the deal, her view hides the others' hands and the public one
    // every hand.
    let all = view_at(&saved, 0, Viewer::All);
    assert_ne!(
        view_at(&saved, 0, Viewer::Seat(Seat::from_index(2).unwrap())),
        all
    );
    assert_ne!(view_at(&saved, 0, Viewer::Public), all);
    let plies = saved.moves.len() + 1;
    assert_eq!(ada.positions.len(), plies);
    assert_eq!(watched.positions.len(), plies);
    let ada_seat = Viewer::Seat(Seat::from_index(2).unwrap());
    for k in 0..plies {
        assert_eq!(
            ada.positions[k]["view"],
            view_at(&saved, k, ada_seat),
            "ply {k}"
        );
        assert_eq!(
            watched.positions[k]["view"],
            view_at(&saved, k, Viewer::Public),
            "ply {k}"
        );
        // Only the person's own position lists choices; the spectators' never.
        assert!(watched.positions[k]["legal"].is_null(), "ply {k}");
    }
    // The last position's places are the result's: peasants who win together share first
    // place, which the winner alone cannot say (the player checks the end against them).
    let places = saved.result.places(3).expect("a finished game");
    for seen in [&ada, &watched] {
        let end = &seen.positions[plies - 1]["outcome"];
        assert_eq!(end["places"], json!(places), "{end}");
    }
    // Once over, every follower is sent the game again as its replay shows it: the real
    // configuration (its seed too) and the module, every move as played, no positions; the
    // player runs the module, which shows any seat's view.
    for after in [&watched.after_end, &ada.after_end] {
        let after = after.as_ref().expect("the full history after the end");
        let whole = contents(after);
        let start = &whole[0];
        assert!(start["position"].is_null(), "no positions after the end");
        let replay: Replay = serde_json::from_value(start["replay"].clone()).unwrap();
        assert_eq!(replay.game, saved.game, "the game's own configuration");
        assert!(replay.module_wasm.is_some(), "the module comes with it");
        assert!(replay.players.iter().all(|p| p.command.is_none()));
        assert_eq!(replay.meta.seed, None, "no bot's seed");
        let moves: Vec<&Value> = whole.iter().filter(|c| c["type"] == "move").collect();
        assert_eq!(moves.len(), saved.moves.len());
        for (k, c) in moves.iter().enumerate() {
            assert_eq!(c["move"]["move"], saved.moves[k].mv.as_str(), "ply {k}");
            assert!(c["position"].is_null(), "ply {k}");
        }
        assert_eq!(whole.last().unwrap()["type"], "end");
    }
}

/// Issue 33 on a game of three seats with hidden hands: `match --live` of Dou Dizhu with Ada
/// on the third seat, killed (SIGKILL) once 4 plies are played, and run again with the same
/// command, takes the game up where it was: the same deal, Ada's link still valid, she is told
/// the game goes on, her positions still show only her hand, and the saved replay is the
/// whole game, its first plies those played before the kill.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_killed_dou_dizhu_live_game_is_taken_up_with_the_person_s_link() {
    let module = dou_dizhu();
    let (port, out) = (free_port(), tempfile::tempdir().unwrap());
    let seats = ADA_ON_SEAT_TWO;
    let (mut child, rx) = module_match(&module, "{}", &seats, port, out.path(), &[]);
    let key = seat_key(&rx, 2);
    let (mut ws, tok) = seat_socket(port, &key, 2).await;
    let before = follow_for(&mut ws, Some((2, &tok)), 4).await;
    child.kill().unwrap();
    child.wait().unwrap();
    let played: Vec<Value> = before.moves.iter().take(4).cloned().collect();
    assert_eq!(played.len(), 4, "{:?}", before.moves);
    let journal = std::fs::read_to_string(out.path().join("live-journal.jsonl")).unwrap();
    let journaled = journal.lines().filter(|l| l.contains("\"move\"")).count();
    assert!(
        journaled >= 4,
        "each ply is journaled as it is played:\n{journal}"
    );

    let (mut child, rx) = module_match(&module, "{}", &seats, port, out.path(), &[]);
    let (again, lines) = seat_link(&rx, 2);
    let taken = format!("game 1: taken up after move {journaled}");
    assert!(lines.iter().any(|l| l.contains(&taken)), "{lines:#?}");
    assert_eq!(again, key, "the person's link stays valid");
    // A first tab opens the game: it runs through the earlier plies and waits for Ada. A
    // move chosen at the deal (ply 0, Ada's turn when the game began) is refused: the
    // game has moved on.
    let (mut tab, tab_tok) = seat_socket(port, &key, 2).await;
    let now = until_seat_to_move(&mut tab, 2, journaled).await;
    send(
        &mut tab,
        json!({"request": "action", "token": tab_tok, "content": "pass", "ply": 0}),
    )
    .await;
    let refused = next_error(&mut tab).await;
    assert!(is_moved_on(&refused), "at ply {now}: {refused}");
    drop(tab);
    let (mut ws, tok) = seat_socket(port, &key, 2).await;
    let after = follow(&mut ws, Some((2, &tok))).await;
    assert!(child.wait().unwrap().success());
    let told = after
        .before_end
        .iter()
        .filter_map(|m| serde_json::from_str::<Value>(m).ok())
        .filter(|m| m["request"] == "notice")
        .filter_map(|m| m["content"].as_str().map(String::from))
        .collect::<Vec<_>>();
    let goes_on = format!("goes on from where it was ({journaled} moves played)");
    assert!(told.iter().any(|n| n.contains(&goes_on)), "{told:?}");
    let text = std::fs::read_to_string(out.path().join("game-0001.json")).unwrap();
    let saved = Replay::from_json(&text).unwrap();
    assert!(saved.result.places(3).is_some(), "{:?}", saved.result);
    assert!(saved.moves.len() > journaled);
    for (k, m) in played.iter().enumerate() {
        assert_eq!(m["move"], saved.moves[k].mv.as_str(), "ply {k}");
    }
    // The plies the game ran through on taking up offered Ada no choices (nobody asks for
    // them); the first position after them that is hers does.
    for k in 0..journaled {
        assert!(
            after.positions[k]["legal"].is_null(),
            "ply {k} offered choices"
        );
    }
    // The hub's positions after the restart are still Ada's view of the same deal.
    let ada = Viewer::Seat(Seat::from_index(2).unwrap());
    assert_eq!(after.positions.len(), saved.moves.len() + 1);
    for k in [0, journaled, saved.moves.len()] {
        assert_eq!(
            after.positions[k]["view"],
            view_at(&saved, k, ada),
            "ply {k}"
        );
    }
    assert_eq!(
        before.positions[0]["view"], after.positions[0]["view"],
        "the same deal"
    );
    assert!(!out.path().join("live-journal.jsonl").exists());
}

/// Goofspiel of three seats with sealed bids (`imp_info`), Ada on the middle seat: each turn
/// is simultaneous, her clock runs with the bots', and she plays by the legal moves her
/// position lists; she never sees another seat's bid (`?`), nor do spectators, until the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_person_bids_in_simultaneous_turns_and_sees_no_other_bid() {
    let module = arbiter_kit_host::build::game_module("game-goofspiel").unwrap();
    arbiter_kit_host::host::register_file(&module).unwrap();
    arbiter_kit_host::host::install();
    let (port, out) = (free_port(), tempfile::tempdir().unwrap());
    let seats = ["builtin:random", "human:Ada", "builtin:random"];
    let config = r#"{"num_cards": 5, "imp_info": true}"#;
    let (mut child, rx) = module_match(&module, config, &seats, port, out.path(), &[]);
    let key = seat_key(&rx, 1);
    let mut watcher = spectator_socket(port).await;
    let spectator = tokio::spawn(async move { follow(&mut watcher, None).await });
    let (mut ws, tok) = seat_socket(port, &key, 1).await;
    let ada = follow(&mut ws, Some((1, &tok))).await;
    let watched = spectator.await.unwrap();
    assert!(child.wait().unwrap().success());
    let text = std::fs::read_to_string(out.path().join("game-0001.json")).unwrap();
    let saved = Replay::from_json(&text).unwrap();
    assert_no_seed(&ada.before_end, &saved);
    assert!(!ada.sent.is_empty());
    assert_eq!(
        chosen_by(&saved, 1),
        ada.sent,
        "Ada's bids are the ones she sent"
    );
    assert!(
        saved.moves.iter().all(|m| m.with.len() == 2),
        "3 bids a turn"
    );
    for (k, m) in ada.moves.iter().enumerate() {
        let real = &saved.moves[k];
        for (i, r) in real.records().enumerate() {
            let shown = if i == 0 {
                &m["move"]
            } else {
                &m["with"][i - 1]["move"]
            };
            let expected = if r.seat.index() == 1 {
                r.mv.as_str()
            } else {
                "?"
            };
            assert_eq!(shown, expected, "ply {k}: {m}");
        }
        let spectator_sees = &watched.moves[k];
        assert_eq!(spectator_sees["move"], "?", "ply {k}: {spectator_sees}");
    }
    // Every turn but the last asked Ada with the others: her position names all movers.
    assert!(
        ada.positions[0]["movers"] == json!([0, 1, 2]),
        "{}",
        ada.positions[0]
    );
    let after = ada
        .after_end
        .as_ref()
        .expect("the full history after the end");
    let revealed: Vec<Value> = contents(after)
        .into_iter()
        .filter(|c| c["type"] == "move")
        .collect();
    assert_eq!(revealed.len(), saved.moves.len());
    for (k, c) in revealed.iter().enumerate() {
        assert_eq!(c["move"]["move"], saved.moves[k].mv.as_str(), "ply {k}");
    }
}

/// `--live-spectators full` would show every hand on a spectator page a person could open:
/// refused before anything is played when a person plays, accepted among bots.
#[test]
fn full_spectators_are_refused_when_a_person_plays() {
    let out = tempfile::tempdir().unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "reversi", "--size", "8", "builtin:1", "human:Ada"])
        .args(["--games", "1", "--live-spectators", "full"])
        .args(["--live", &format!("127.0.0.1:{}", free_port()), "-o"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(!run.status.success());
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("--live-spectators full") && said.contains("a person plays"),
        "{said}"
    );
    assert!(!out.path().join("game-0001.json").exists());
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "reversi", "builtin:1", "builtin:1"])
        .args(["--live-spectators", "everything", "--live"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("public"));
}

/// The hub's spectators, public (the default) and full, on the first plies of a Dou Dizhu
/// game fed to it as the referee does (the contest site's `[live] spectators` and `match
/// --live-spectators` set this): public spectators see no hand while the game runs, full
/// ones every hand, each ply the module's view for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn full_spectators_see_every_hand_while_the_game_runs_and_public_ones_none() {
    use arbiter_live::game::Spectators;
    use arbiter_match::live::Observer;
    let module = dou_dizhu();
    let out = tempfile::tempdir().unwrap();
    let played = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .arg(&module)
        .args(["builtin:random", "builtin:random", "builtin:random"])
        .args(["--games", "1", "--quiet", "--seed", SEED, "-o"])
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(played.success());
    let text = std::fs::read_to_string(out.path().join("game-0001.json")).unwrap();
    let saved = Replay::from_json(&text).unwrap();
    let limits = arbiter_match::game::LimitOverrides::default().apply(&saved.game);
    for (spectators, viewer) in [
        (Spectators::Public, Viewer::Public),
        (Spectators::Full, Viewer::All),
    ] {
        let options = arbiter_live::HubOptions {
            spectators,
            ..Default::default()
        };
        let (hub, base) = crate::live::hub(options).await;
        let game = hub.open("a game fed by hand");
        let mut observer = game.observer();
        let mut fed = saved.clone();
        fed.moves.clear();
        observer.started(&fed, &limits);
        for record in saved.moves.iter().take(3) {
            fed.moves.push(record.clone());
            observer.moved(&fed);
        }
        let mut ws = connect(&format!("{base}/_{}", game.id)).await;
        let tok = token::spectator(&base, game.id);
        send(&mut ws, json!({"request": "connect", "token": tok})).await;
        let seen = follow_for(&mut ws, None, 3).await;
        assert_eq!(seen.positions.len(), 4, "{spectators:?}");
        for (k, p) in seen.positions.iter().enumerate() {
            assert_eq!(
                p["view"],
                view_at(&saved, k, viewer),
                "{spectators:?} ply {k}"
            );
            assert!(p["legal"].is_null(), "no choices for spectators");
        }
        // The check can fail: the two views differ at the deal.
        assert_ne!(
            view_at(&saved, 0, Viewer::Public),
            view_at(&saved, 0, Viewer::All)
        );
        assert_no_seed(&seen.before_end, &saved);
    }
}

/// No bot's log reaches the hub's followers: not a ply's, not those of the moves played with
/// it in a simultaneous turn (Goofspiel of three seats, every record given a log), not with
/// full spectators, not in the history sent after the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_bot_log_reaches_the_followers_of_a_simultaneous_game() {
    use arbiter_live::game::Spectators;
    use arbiter_match::live::Observer;
    let module = arbiter_kit_host::build::game_module("game-goofspiel").unwrap();
    arbiter_kit_host::host::register_file(&module).unwrap();
    arbiter_kit_host::host::install();
    let out = tempfile::tempdir().unwrap();
    let played = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .arg(&module)
        .args(["--config", r#"{"num_cards": 4, "imp_info": true}"#])
        .args(["builtin:random", "builtin:random", "builtin:random"])
        .args(["--games", "1", "--quiet", "-o"])
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(played.success());
    let text = std::fs::read_to_string(out.path().join("game-0001.json")).unwrap();
    let mut saved = Replay::from_json(&text).unwrap();
    for (k, m) in saved.moves.iter_mut().enumerate() {
        m.log = Some(format!("SECRET-LOG {k}"));
        for w in &mut m.with {
            w.log = Some(format!("SECRET-WITH {k}"));
        }
    }
    assert!(
        saved.moves.iter().all(|m| m.with.len() == 2),
        "3 bids a turn"
    );
    let options = arbiter_live::HubOptions {
        spectators: Spectators::Full,
        ..Default::default()
    };
    let (hub, base) = crate::live::hub(options).await;
    let game = hub.open("a game fed by hand");
    let mut ws = connect(&format!("{base}/_{}", game.id)).await;
    let tok = token::spectator(&base, game.id);
    send(&mut ws, json!({"request": "connect", "token": tok})).await;
    // Connected before the game starts (its empty history came): it then sees the game as it
    // is fed, the end, and the history sent after the end.
    let first = next(&mut ws).await.unwrap();
    assert_eq!(first, json!({"request": "history", "content": []}));
    let mut observer = game.observer();
    let limits = arbiter_match::game::LimitOverrides::default().apply(&saved.game);
    let mut fed = saved.clone();
    fed.moves.clear();
    observer.started(&fed, &limits);
    for record in &saved.moves {
        fed.moves.push(record.clone());
        observer.moved(&fed);
    }
    observer.ended(&saved);
    let seen = follow(&mut ws, None).await;
    let after = seen
        .after_end
        .expect("the history after the end")
        .to_string();
    assert_eq!(seen.moves.len(), saved.moves.len());
    for m in seen.before_end.iter().chain([&after]) {
        assert!(!m.contains("SECRET"), "a bot's log was sent: {m}");
    }
}

/// Two people and a bot: each person has their own link, and the game starts only once both
/// have opened their seats (the command says whom it waits for).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_of_two_people_waits_for_both_of_their_seats() {
    let module = arbiter_kit_host::build::game_module("game-dou-dizhu").unwrap();
    let (port, out) = (free_port(), tempfile::tempdir().unwrap());
    let seats = ["human:Ada", "builtin:random", "human:Bo"];
    let (mut child, rx) = module_match(&module, "{}", &seats, port, out.path(), &[]);
    let (ada, bo) = (seat_key(&rx, 0), seat_key(&rx, 2));
    assert_ne!(ada, bo, "one key a seat");
    let waiting_for = |who: &str| loop {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no line saying the game waits for {who}"));
        if line.contains("waiting for") {
            assert!(line.contains(who), "{line}");
            return;
        }
    };
    waiting_for("Ada");
    let (mut first, _) = seat_socket(port, &ada, 0).await;
    waiting_for("Bo");
    // Ada is there, Bo is not: nothing has started.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut watcher = spectator_socket(port).await;
    let before = next(&mut watcher).await.unwrap();
    assert_eq!(before["content"], json!([]), "started without Bo: {before}");
    let (_second, _) = seat_socket(port, &bo, 2).await;
    // Bo came: the game starts, and Ada is sent its start with her seat.
    let start = loop {
        let m = next(&mut first).await.expect("the start");
        if let Some(c) = contents(&m).into_iter().find(|c| c["type"] == "start") {
            break c;
        }
    };
    assert_eq!(start["seat"], 0);
    assert!(start["position"]["view"].is_object(), "{start}");
    child.kill().unwrap();
    let _ = child.wait();
}
