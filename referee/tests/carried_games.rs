//! The game modules the binary carries (games/dist, checked in): in step with their sources,
//! and played by name from an empty directory with no checkout in sight: `game list`, a
//! `match`, `game perft`, and a contest started on one.

use std::path::Path;
use std::process::Command;

use crate::dist_support;
use crate::kit_support;
use dist_support::{root, stale_sources};

#[test]
fn the_carried_games_are_built_from_the_current_sources() {
    let stale = stale_sources("games/dist/games.sources");
    assert!(
        stale.is_empty(),
        "games/dist is older than its sources: run `bash scripts/games-dist.sh` and commit \
         games/dist. Since it was built:\n  {}",
        stale.join("\n  ")
    );
}

/// `arbiter ARGS...` run in `dir`, with its cache (where carried modules are written) in
/// `dir` too: whether it succeeded, and what it printed.
fn arbiter_in(dir: &Path, args: &[&str]) -> (bool, String) {
    kit_support::run(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .current_dir(dir)
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .args(args),
    )
}

#[test]
fn every_carried_game_is_listed_and_plays_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let (ok, list) = arbiter_in(tmp.path(), &["game", "list"]);
    assert!(ok, "{list}");
    let names: Vec<String> = std::fs::read_dir(root().join("games/dist"))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".wasm").map(str::to_string)
        })
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    for name in &names {
        assert!(
            list.lines()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "{name} is not listed:\n{list}"
        );
        // Each is a module the host loads, with its own name.
        let (ok, text) = arbiter_in(tmp.path(), &["game", "perft", name, "--depth", "1"]);
        assert!(ok, "{name}: {text}");
        assert!(text.contains(name.as_str()), "{name}: {text}");
    }
    // A match by name, from an empty directory: the replay names the module and carries it.
    let (ok, text) = arbiter_in(
        tmp.path(),
        &[
            "match",
            "dou-dizhu",
            "builtin:random",
            "builtin:random",
            "builtin:random",
            "--games",
            "1",
            "-o",
            "out",
        ],
    );
    assert!(ok, "{text}");
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("out/game-0001.json")).unwrap())
            .unwrap();
    assert_eq!(replay["game"]["module"]["name"], "dou-dizhu");
    assert_eq!(replay["result"]["reason"]["kind"], "normal", "{text}");
    assert!(replay["module_wasm"].is_string());
    // The carried copy on disk is the binary's own bytes, under the cache.
    let cached: Vec<_> = std::fs::read_dir(tmp.path().join("cache/arbiter/games"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        cached
            .iter()
            .any(|f| f.starts_with("dou-dizhu-") && f.ends_with(".wasm")),
        "{cached:?}"
    );
    assert!(!cached.iter().any(|f| f.ends_with(".part")), "{cached:?}");
}

#[test]
fn a_contest_starts_on_a_carried_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (ok, text) = arbiter_in(
        tmp.path(),
        &[
            "contest",
            "init",
            "c",
            "--game",
            "connect-four",
            "--game-config",
            r#"{"cols": 8}"#,
        ],
    );
    assert!(ok, "{text}");
    let toml = std::fs::read_to_string(tmp.path().join("c/contest.toml")).unwrap();
    assert!(toml.contains("connect-four.wasm"), "{toml}");
    assert!(toml.contains("cols"), "{toml}");
    let copied = std::fs::read(tmp.path().join("c/connect-four.wasm")).unwrap();
    let carried = std::fs::read(root().join("games/dist/connect-four.wasm")).unwrap();
    assert_eq!(copied, carried, "the contest's module is the carried one");
    // A built-in game takes no module config: said, not ignored.
    let (ok, text) = arbiter_in(
        tmp.path(),
        &[
            "contest",
            "init",
            "r",
            "--game",
            "reversi",
            "--game-config",
            "{}",
        ],
    );
    assert!(
        !ok && text.contains("--game-config configures a game module"),
        "{text}"
    );
    assert!(!tmp.path().join("r/contest.toml").exists());
}

/// `game perft --moves` counts from a position: Connect Four's first seven plies cannot fill a
/// column or win, so every first move leaves 7^3 leaves three plies on; in Goofspiel, after one
/// sealed round (`13+1`: each bidder's card, seat order) each has 12 cards left, 12 x 12 joint
/// bids. A ply the rules refuse, or a simultaneous ply without a move for every mover, is said.
#[test]
fn perft_counts_from_a_position() {
    let tmp = tempfile::tempdir().unwrap();
    let perft = |args: &[&str]| arbiter_in(tmp.path(), &[&["game", "perft"], args].concat());
    let (ok, text) = perft(&["connect-four", "--depth", "3", "--moves", "d"]);
    assert!(ok && text.contains("perft(3) = 343"), "{text}");
    let (ok, text) = perft(&["goofspiel", "--depth", "1", "--moves", "13+1"]);
    assert!(ok && text.contains("perft(1) = 144"), "{text}");
    let (ok, text) = perft(&["goofspiel", "--depth", "1", "--moves", "13"]);
    assert!(
        !ok && text.contains("takes one move each, joined by +"),
        "{text}"
    );
    let (ok, text) = perft(&["connect-four", "--depth", "1", "--moves", "d x"]);
    assert!(!ok && text.contains("ply 2: x: refused"), "{text}");
}

/// Whatever stands at a carried game's place in the cache (a named pipe, another module, a
/// link) is replaced by the carried bytes, never read as the game or waited on.
#[test]
fn a_cache_entry_that_is_not_the_carried_module_is_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let (ok, text) = arbiter_in(tmp.path(), &["game", "perft", "amazons", "--depth", "1"]);
    assert!(ok, "{text}");
    let games = tmp.path().join("cache/arbiter/games");
    let entry = std::fs::read_dir(&games)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let carried = std::fs::read(root().join("games/dist/amazons.wasm")).unwrap();
    std::fs::remove_file(&entry).unwrap();
    let made = Command::new("mkfifo").arg(&entry).status().unwrap();
    assert!(made.success());
    let (ok, text) = arbiter_in(tmp.path(), &["game", "perft", "amazons", "--depth", "1"]);
    assert!(ok && text.contains("perft(1) = 2176"), "{text}");
    assert_eq!(std::fs::read(&entry).unwrap(), carried);
    // Another module under its name is replaced too.
    std::fs::write(
        &entry,
        std::fs::read(root().join("games/dist/hex.wasm")).unwrap(),
    )
    .unwrap();
    let (ok, text) = arbiter_in(tmp.path(), &["game", "perft", "amazons", "--depth", "1"]);
    assert!(ok && text.contains("amazons"), "{text}");
    assert_eq!(std::fs::read(&entry).unwrap(), carried);
}
