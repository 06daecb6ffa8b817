//! Config validation and the schedule.

use std::collections::BTreeMap;
use std::path::Path;

use arbiter_tournament::config::TournamentConfig;
use arbiter_tournament::schedule;

fn resolve(text: &str) -> Result<arbiter_tournament::config::Resolved, String> {
    TournamentConfig::parse(text, "test.toml")
        .and_then(|c| c.resolve(Path::new("/tmp")))
        .map_err(|e| e.to_string())
}

const BASE: &str = r#"
seed = 3
[game]
name = "reversi"
size = 8
[[bots]]
name = "a"
command = "./a"
[[bots]]
name = "b"
command = "./b"
"#;

#[test]
fn a_minimal_config_resolves() {
    let r = resolve(BASE).unwrap();
    assert_eq!(r.file.games_per_pairing, 2);
    assert_eq!(schedule::plan(&r, |_| true).len(), 2);
}

#[test]
fn errors_name_the_problem() {
    let cases: [(&str, &str); 10] = [
        ("bogus = 1\n", "unknown field `bogus`"),
        ("games_per_pairing = 3\n", "must be even"),
        ("concurrency = 0\n", "concurrency"),
        ("format = \"swisss\"\n", "unknown variant `swisss`"),
        ("format = \"swiss\"\n", "a Swiss needs rounds"),
        ("format = \"gauntlet\"\n", "reference"),
        ("reference = [\"a\"]\n", "only applies"),
        (
            "format = \"gauntlet\"\nreference = [\"zz\"]\n",
            "\"zz\" is not among the bots",
        ),
        (
            "format = \"gauntlet\"\nreference = [\"a\", \"b\"]\n",
            "outside",
        ),
        (
            "[limits]\nmove_seconds = 3\n",
            "unknown field `move_seconds`",
        ),
    ];
    for (extra, want) in cases {
        let e = resolve(&format!("{extra}{BASE}")).unwrap_err();
        assert!(e.contains(want), "{extra:?}: {e}");
    }
    let game = |g: &str| resolve(&BASE.replace("name = \"reversi\"\nsize = 8", g)).unwrap_err();
    assert!(game("name = \"chess\"").contains("unknown game"));
    assert!(game("name = \"reversi\"\nsize = 9").contains("game"));
    assert!(game("name = \"reversi\"\nrule = \"renju\"").contains("--rule"));
    assert!(game("name = \"gomoku\"\nopenings = [\"Z99\"]").contains("openings[0]"));
    // Seed 001's protocol has no way to tell a bot the opening.
    assert!(game("name = \"reversi\"\nsize = 8\nopenings = [\"d3 c5\"]")
        .contains("cannot tell bots an opening"));
    assert!(game("name = \"reversi\"\nsize = 8\nopenings = [\"d3 c5\"]").contains("reversi-board"));
    assert!(game("name = \"reversi\"\nprotocol = \"gomocup\"").contains("game.protocol"));
    assert!(game("name = \"reversi\"\nprotocol = \"telnet\"").contains("unknown protocol"));
    let e = resolve(&BASE.replace("command = \"./b\"", "")).unwrap_err();
    assert!(e.contains("missing command"), "{e}");
    let e = resolve(&BASE.replace("name = \"b\"", "name = \"a\"")).unwrap_err();
    assert!(e.contains("used twice"), "{e}");
    let e = resolve(&BASE.replace("name = \"b\"", "name = \"b/../x\"")).unwrap_err();
    assert!(e.contains("letters"), "{e}");
    let e = resolve(&BASE.replace(
        "command = \"./b\"",
        "command = \"./b\"\nprotocol = \"gomocup\"",
    ))
    .unwrap_err();
    assert!(e.contains("protocol"), "{e}");
    let e = resolve("[game]\nname = \"reversi\"\n[[bots]]\nname = \"a\"\ncommand = \"x\"\n")
        .unwrap_err();
    assert!(e.contains("at least 2"), "{e}");
    let e = resolve("[[bots]]\nname = \"a\"\ncommand = \"x\"\n").unwrap_err();
    assert!(e.contains("missing field `game`"), "{e}");
}

fn many_bots(n: usize, format: &str, gpp: usize) -> String {
    let mut s = format!("seed = 11\nformat = \"{format}\"\ngames_per_pairing = {gpp}\n[game]\nname = \"reversi\"\nsize = 16\n");
    for i in 0..n {
        s.push_str(&format!(
            "[[bots]]\nname = \"bot{i:02}\"\ncommand = \"./rbot 16 {i}\"\n"
        ));
    }
    s
}

#[test]
fn forty_bots_double_round_robin_is_3120_balanced_games() {
    let r = resolve(&many_bots(40, "double-round-robin", 2)).unwrap();
    let plan = schedule::plan(&r, |_| true);
    assert_eq!(plan.len(), 40 * 39 / 2 * 4);
    // Every ordered pair (first, second) appears exactly twice: colours balanced per pairing.
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    for p in &plan {
        *seen
            .entry((p.seats[0].clone(), p.seats[1].clone()))
            .or_default() += 1;
    }
    assert_eq!(seen.len(), 40 * 39);
    assert!(seen.values().all(|&c| c == 2));
    // Keys are unique, and the plan is the same every time.
    let keys: std::collections::BTreeSet<String> = plan.iter().map(|p| p.key()).collect();
    assert_eq!(keys.len(), plan.len());
    assert_eq!(plan, schedule::plan(&r, |_| true));
    // Another seed gives another order, the same games.
    let r2 =
        resolve(&many_bots(40, "double-round-robin", 2).replace("seed = 11", "seed = 12")).unwrap();
    let plan2 = schedule::plan(&r2, |_| true);
    assert_ne!(
        plan.iter().map(|p| p.key()).collect::<Vec<_>>(),
        plan2.iter().map(|p| p.key()).collect::<Vec<_>>()
    );
    let keys2: std::collections::BTreeSet<String> = plan2.iter().map(|p| p.key()).collect();
    assert_eq!(keys, keys2);
}

#[test]
fn gauntlet_plays_only_against_the_reference() {
    let text =
        many_bots(5, "gauntlet", 4).replace("[game]", "reference = [\"bot00\", \"bot01\"]\n[game]");
    let r = resolve(&text).unwrap();
    let plan = schedule::plan(&r, |_| true);
    assert_eq!(plan.len(), 3 * 2 * 4);
    for p in &plan {
        let refs = p
            .seats
            .iter()
            .filter(|s| *s == "bot00" || *s == "bot01")
            .count();
        assert_eq!(refs, 1, "{:?}", p.seats);
    }
}

#[test]
fn openings_are_played_with_both_colours() {
    let text = BASE
        .replace(
            "name = \"reversi\"\nsize = 8",
            "name = \"gomoku\"\nopenings = [\"H8 I9\", \"H8 G7\", \"H8 J10 G9\"]",
        )
        .replace("seed = 3", "seed = 3\ngames_per_pairing = 6");
    let r = resolve(&text).unwrap();
    let plan = schedule::plan(&r, |_| true);
    assert_eq!(plan.len(), 6);
    for o in 0..3 {
        let firsts: Vec<&str> = plan
            .iter()
            .filter(|p| p.opening == Some(o))
            .map(|p| p.seats[0].as_str())
            .collect();
        assert_eq!(firsts.len(), 2, "opening {o}");
        assert_ne!(firsts[0], firsts[1], "opening {o} with both colours");
    }
}

#[test]
fn reversi_openings_need_and_get_the_board_protocol() {
    use arbiter_match::protocol::ProtocolKind;
    let with = |extra: &str| {
        BASE.replace(
            "size = 8",
            &format!("size = 8\nopenings = [\"d3 c5\", \"f5 f6 e6\"]\n{extra}"),
        )
    };
    let r = resolve(&with("protocol = \"reversi-board\"")).unwrap();
    assert_eq!(r.protocol, ProtocolKind::ReversiBoard);
    assert_eq!(r.openings.len(), 2);
    // A bot's own entry may still choose, but not a protocol that cannot carry openings.
    let e = resolve(&with("protocol = \"reversi-board\"").replace(
        "command = \"./b\"",
        "command = \"./b\"\nprotocol = \"reversi\"",
    ))
    .unwrap_err();
    assert!(e.contains("bots[1].protocol"), "{e}");
    // Without openings the game's default stands.
    assert_eq!(resolve(BASE).unwrap().protocol, ProtocolKind::Reversi);
}

#[test]
fn duel_seeds_follow_the_tournament_seed_and_pairs() {
    let text = BASE
        .replace("name = \"reversi\"\nsize = 8", "name = \"duel2048\"")
        .replace("seed = 3", "seed = 3\ngames_per_pairing = 4");
    let r = resolve(&text).unwrap();
    let plan = schedule::plan(&r, |_| true);
    let seed_of = |p: &schedule::Planned| match &p.config {
        arbiter_engine::any::GameConfig::Duel2048(c) => match c.random {
            arbiter_engine::duel2048::RandomSource::Seed(s) => s,
            _ => panic!("sequence"),
        },
        _ => panic!("not a duel"),
    };
    let mut by_number: Vec<(u32, u64)> = plan.iter().map(|p| (p.number, seed_of(p))).collect();
    by_number.sort();
    assert_eq!(by_number, vec![(0, 3), (1, 3), (2, 4), (3, 4)]);
}

#[test]
fn the_example_config_is_valid() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournament/example.toml");
    let (c, _) = TournamentConfig::load(&path).unwrap();
    let r = c.resolve(path.parent().unwrap()).unwrap();
    assert_eq!(schedule::plan(&r, |_| true).len(), 3 * 4);
}

#[test]
fn every_gomoku_rule_resolves_by_name() {
    use arbiter_engine::gomoku::Rule;
    use arbiter_engine::GameConfig;
    for rule in Rule::ALL {
        let text = BASE.replace(
            "name = \"reversi\"\nsize = 8",
            &format!("name = \"gomoku\"\nrule = \"{}\"", rule.name()),
        );
        let r = resolve(&text).unwrap();
        assert!(
            matches!(r.game, GameConfig::Gomoku(c) if c.rule == rule),
            "{rule:?}"
        );
    }
    let e = resolve(&BASE.replace(
        "name = \"reversi\"\nsize = 8",
        "name = \"gomoku\"\nrule = \"renju_gomocup\"",
    ))
    .unwrap_err();
    assert!(e.contains("renju-gomocup"), "{e}");
}

#[test]
fn without_an_openings_line_the_shipped_suite_is_played_where_the_protocols_can() {
    // Gomoku (gomocup by default): the rule's suite, every line legal under that rule.
    for rule in ["freestyle", "standard", "renju"] {
        let text = BASE.replace(
            "name = \"reversi\"\nsize = 8",
            &format!("name = \"gomoku\"\nrule = \"{rule}\""),
        );
        let r = resolve(&text).unwrap();
        assert_eq!(r.openings.len(), 12, "{rule}");
        assert!(
            r.notes[0].contains(&format!("gomoku-{rule}.txt")),
            "{:?}",
            r.notes
        );
        let plan = schedule::plan(&r, |_| true);
        assert!(plan.iter().all(|p| p.opening == Some(0)), "{rule}");
    }
    // Reversi with the board protocol: the size's suite.
    let board = BASE.replace("size = 8", "size = 8\nprotocol = \"reversi-board\"");
    let r = resolve(&board).unwrap();
    assert_eq!(r.openings.len(), 100);
    let r16 = resolve(&board.replace("size = 8", "size = 16")).unwrap();
    assert_eq!(r16.openings.len(), 100);
    assert_ne!(r.openings[0], r16.openings[0]);
    // Seed 001's protocol cannot start from an opening: none, and a note that says why.
    let r = resolve(BASE).unwrap();
    assert!(r.openings.is_empty());
    assert!(r.notes[0].contains("reversi-board"), "{:?}", r.notes);
    // `openings = []`: the initial position on purpose, without a note.
    let none = board.replace("protocol =", "openings = []\nprotocol =");
    let r = resolve(&none).unwrap();
    assert!(r.openings.is_empty() && r.notes.is_empty(), "{:?}", r.notes);
    // The duel has no suite (each pair has its own random sequence).
    let duel =
        resolve(&BASE.replace("name = \"reversi\"\nsize = 8", "name = \"duel2048\"")).unwrap();
    assert!(duel.openings.is_empty() && duel.notes.is_empty());
}

/// `[game] module`: the module's JSON config from the table, its seed from the tournament's,
/// advancing per pair of games (both colours of a pair share the chance); keys of built-in
/// games, openings and a config without a module are refused.
#[test]
fn a_module_game_resolves_and_its_pairs_share_chance() {
    let module = arbiter_kit_host::build::game_module("game-connect-four").unwrap();
    let dir = module.parent().unwrap();
    let file = module.file_name().unwrap().to_str().unwrap();
    let text = format!(
        r#"
seed = 3
games_per_pairing = 4
[game]
module = "{file}"
config = {{ cols = 8, rows = 7 }}
[[bots]]
name = "a"
command = "./a"
[[bots]]
name = "b"
command = "./b"
"#
    );
    let resolve_in = |t: &str| {
        TournamentConfig::parse(t, "test.toml")
            .and_then(|c| c.resolve(dir))
            .map_err(|e| e.to_string())
    };
    let r = resolve_in(&text).unwrap();
    assert_eq!(r.protocol.name(), "kit");
    let m = r.game.as_module().unwrap();
    assert_eq!((m.module.name.as_str(), m.seed), ("connect-four", 3));
    let config: serde_json::Value = serde_json::from_str(&m.config).unwrap();
    assert_eq!(config, serde_json::json!({"cols": 8, "rows": 7}));
    let seeds: Vec<u64> = schedule::plan(&r, |_| true)
        .iter()
        .map(|p| (p.number, p.config.as_module().unwrap().seed))
        .collect::<BTreeMap<_, _>>()
        .into_values()
        .collect();
    assert_eq!(seeds, vec![3, 3, 4, 4]);

    for (change, expect) in [
        ("config = {", "rule = \"renju\"\nconfig = {"),
        ("config = {", "openings = [\"z9\"]\nconfig = {"),
    ] {
        let bad = text.replace(change, expect);
        assert!(resolve_in(&bad).is_err(), "{expect}");
    }
    // Openings in the module's notation, checked through it.
    let opened =
        resolve_in(&text.replace("config = {", "openings = [\"d e\"]\nconfig = {")).unwrap();
    assert_eq!(
        opened.openings,
        vec![vec!["d".to_string(), "e".to_string()]]
    );
    let no_module = BASE.replace("size = 8", "size = 8\nconfig = { cols = 8 }");
    let e = resolve(&no_module).unwrap_err();
    assert!(e.contains("give game.module too"), "{e}");
}
