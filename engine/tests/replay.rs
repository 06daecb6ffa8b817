//! The replay document: round trips through JSON, and strict reading of bad documents.

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::duel2048::{self, RandomSource};
use arbiter_engine::replay::{GameResult, MoveRecord, Player, Reason, Replay, ReplayError};
use arbiter_engine::{gomoku, reversi, Seat};
use proptest::prelude::*;

/// A tiny deterministic generator for picking moves.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

fn players() -> [Player; 2] {
    [
        Player {
            name: "alpha".into(),
            seat: Seat::FIRST,
            command: Some("./alpha".into()),
        },
        Player {
            name: "beta <b>".into(),
            seat: Seat::SECOND,
            command: None,
        },
    ]
}

/// A random game played to its end (or `max_plies`), as a replay.
fn random_replay(config: GameConfig, seed: u64, max_plies: usize) -> Replay {
    let mut rng = Lcg(seed);
    let mut game = AnyGame::new(&config).unwrap();
    let mut replay = Replay::new(config, players());
    while let Some(seat) = game.to_move() {
        if replay.moves.len() >= max_plies {
            break;
        }
        let moves = game.legal_moves();
        let mv = moves[rng.below(moves.len())];
        let text = game.format_move(mv);
        game.play(mv).unwrap();
        let mut rec = MoveRecord::new(seat, text);
        rec.time_ms = Some(rng.below(1000) as f64 / 8.0);
        if rng.below(4) == 0 {
            rec.log = Some(format!("depth {} \"quoted\"\n", rng.below(9)));
        }
        replay.moves.push(rec);
    }
    replay.result = match game.outcome() {
        Some(o) => GameResult {
            winner: o.winner,
            places: None,
            reason: Reason::Normal,
        },
        None => {
            let seat = game.to_move().unwrap();
            GameResult {
                winner: Some(seat.other()),
                places: None,
                reason: Reason::MoveTime {
                    seat,
                    limit_ms: 5000,
                },
            }
        }
    };
    replay.scores = Some(game.scores());
    replay
}

fn configs() -> Vec<GameConfig> {
    vec![
        GameConfig::Reversi(reversi::Config { size: 8 }),
        GameConfig::Reversi(reversi::Config { size: 16 }),
        GameConfig::Reversi(reversi::Config { size: 4 }),
        GameConfig::Gomoku(gomoku::Config {
            size: 15,
            rule: gomoku::Rule::Renju,
        }),
        GameConfig::Gomoku(gomoku::Config {
            size: 9,
            rule: gomoku::Rule::Standard,
        }),
        GameConfig::Duel2048(duel2048::Config {
            rounds: 60,
            random: RandomSource::Seed(3),
        }),
        GameConfig::Duel2048(duel2048::Config {
            rounds: 5,
            random: RandomSource::Sequence(vec![0, 720_719, 5, 77, 12345]),
        }),
    ]
}

#[test]
fn written_and_read_back_is_unchanged() {
    for (i, config) in configs().into_iter().enumerate() {
        for seed in 0..5 {
            let replay = random_replay(config.clone(), seed * 31 + i as u64, 10_000);
            for text in [replay.to_json(), replay.to_json_pretty()] {
                let (back, rebuilt) = Replay::read(&text).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(back, replay);
                assert_eq!(rebuilt.frame_count(), replay.moves.len() + 1);
                assert_eq!(rebuilt.end.scores(), replay.scores.clone().unwrap());
                let last = rebuilt.frame(replay.moves.len()).unwrap();
                assert_eq!(last.scores(), rebuilt.end.scores());
                assert!(rebuilt.frame(replay.moves.len() + 1).is_none());
            }
        }
    }
}

#[test]
fn normal_and_failure_results_are_accepted_when_consistent() {
    // A failure mid-game: the culprit loses.
    let replay = random_replay(GameConfig::Reversi(reversi::Config { size: 8 }), 1, 10);
    assert_eq!(replay.result.reason.code(), "move_time");
    Replay::read(&replay.to_json()).unwrap();
}

fn expect_err(text: &str) -> ReplayError {
    match Replay::read(text) {
        Ok(_) => panic!("accepted a bad replay: {text}"),
        Err(e) => e,
    }
}

fn sample() -> Replay {
    random_replay(GameConfig::Reversi(reversi::Config { size: 8 }), 7, 10_000)
}

fn edit(f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    f(&mut v);
    v.to_string()
}

#[test]
fn envelope_errors_name_the_problem() {
    assert!(matches!(expect_err("{ not json"), ReplayError::Json(_)));
    assert!(matches!(expect_err("[1, 2]"), ReplayError::NotAReplay(_)));
    assert!(matches!(
        expect_err("{\"moves\": []}"),
        ReplayError::NotAReplay(_)
    ));
    let e = expect_err(&edit(|v| v["format"] = "saiblo".into()));
    assert!(e.to_string().contains("saiblo"), "{e}");
    let e = expect_err(&edit(|v| v["version"] = 2.into()));
    assert_eq!(e, ReplayError::UnsupportedVersion { found: 2 });
    assert!(e.to_string().contains("version 2"));
    let e = expect_err(&edit(|v| v["colour"] = "red".into()));
    assert!(e.to_string().contains("colour"), "{e}");
    let e = expect_err(&edit(|v| v["moves"][0]["tiem_ms"] = 3.into()));
    assert!(e.to_string().contains("tiem_ms"), "{e}");
    let e = expect_err(&edit(|v| v["game"]["name"] = "chess".into()));
    assert!(matches!(e, ReplayError::Json(_)), "{e}");
    let e = expect_err(&edit(|v| v["game"]["size"] = 7.into()));
    assert!(matches!(e, ReplayError::Config(_)), "{e}");
    let e = expect_err(&edit(|v| {
        v["players"]
            .as_array_mut()
            .unwrap()
            .pop()
            .map(|_| ())
            .unwrap()
    }));
    assert!(matches!(e, ReplayError::Players(_)), "{e}");
}

#[test]
fn an_illegal_move_is_reported_with_its_number() {
    let e = expect_err(&edit(|v| v["moves"][4]["move"] = "a1".into()));
    match &e {
        ReplayError::Move { number, mv, .. } => {
            assert_eq!(*number, 5);
            assert_eq!(mv, "a1");
        }
        other => panic!("{other}"),
    }
    assert!(e.to_string().starts_with("move 5 ("), "{e}");
    let e = expect_err(&edit(|v| v["moves"][2]["move"] = "zz9".into()));
    assert!(matches!(e, ReplayError::Move { number: 3, .. }), "{e}");
    let e = expect_err(&edit(|v| v["moves"][1]["seat"] = 0.into()));
    assert!(e.to_string().contains("turn"), "{e}");
    let e = expect_err(&edit(|v| {
        let m = v["moves"][0].clone();
        v["moves"].as_array_mut().unwrap().push(m);
    }));
    assert!(matches!(e, ReplayError::Move { .. }), "{e}");
}

#[test]
fn results_that_contradict_the_moves_are_rejected() {
    let replay = sample();
    let winner = replay.result.winner;
    // Wrong winner for a normal end.
    let e = expect_err(&edit(|v| {
        v["result"]["winner"] = match winner {
            Some(Seat::FIRST) => 1.into(),
            _ => 0.into(),
        }
    }));
    assert!(matches!(e, ReplayError::Result(_)), "{e}");
    // Normal end claimed while the game goes on.
    let e = expect_err(&edit(|v| {
        v["moves"].as_array_mut().unwrap().truncate(10);
    }));
    assert!(matches!(e, ReplayError::Result(_)), "{e}");
    // A failure verdict after the game ended by its rules.
    let e = expect_err(&edit(|v| {
        v["result"] =
            serde_json::json!({"winner": 1, "reason": {"kind": "crash", "seat": 0, "signal": 11}});
    }));
    assert!(e.to_string().contains("crash"), "{e}");
    // Scores that differ.
    let e = expect_err(&edit(|v| v["scores"] = serde_json::json!([1, 2])));
    assert!(e.to_string().contains("scores"), "{e}");
    // An "illegal" move the rules allow, and a culprit named winner.
    let short = random_replay(GameConfig::Reversi(reversi::Config { size: 8 }), 7, 6);
    let mut g = AnyGame::new(&short.game).unwrap();
    for m in &short.moves {
        g.play_text(&m.mv).unwrap();
    }
    let legal = g.format_move(g.legal_moves()[0]);
    let seat = g.to_move().unwrap();
    let mut bad = short.clone();
    bad.result = GameResult {
        winner: Some(seat.other()),
        places: None,
        reason: Reason::IllegalMove {
            seat,
            mv: legal,
            why: "x".into(),
            line: None,
        },
    };
    assert!(matches!(
        Replay::read(&bad.to_json()),
        Err(ReplayError::Result(_))
    ));
    let mut bad = short.clone();
    bad.result = GameResult {
        winner: Some(seat),
        places: None,
        reason: Reason::MoveTime { seat, limit_ms: 1 },
    };
    assert!(matches!(
        Replay::read(&bad.to_json()),
        Err(ReplayError::Result(_))
    ));
    // The same verdict with a really illegal move is fine.
    let mut ok = short;
    ok.result = GameResult {
        winner: Some(seat.other()),
        places: None,
        reason: Reason::IllegalMove {
            seat,
            mv: "a1".into(),
            why: "occupied or no flips".into(),
            line: None,
        },
    };
    Replay::read(&ok.to_json()).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
        let _ = Replay::read(&s);
    }

    #[test]
    fn mutated_replays_never_panic(pos in 0usize..4000, byte in any::<u8>()) {
        let mut text = sample().to_json().into_bytes();
        let i = pos % text.len();
        text[i] = byte;
        if let Ok(s) = String::from_utf8(text) {
            let _ = Replay::read(&s);
        }
    }
}

/// Verdicts and exits read as sentences a student understands.
#[test]
fn verdict_and_exit_sentences() {
    use arbiter_engine::replay::{Exit, Killer};
    let illegal = |mv: &str, why: &str, line: Option<&str>| Reason::IllegalMove {
        seat: Seat::FIRST,
        mv: mv.into(),
        why: why.into(),
        line: line.map(String::from),
    };
    let cases = [
        (
            illegal("h8", "the point is already occupied", Some("7 7")),
            "illegal move: you sent \"7 7\" (h8), which is already occupied",
        ),
        (
            illegal("107 6", "the point is off the board", Some("107 6")),
            "illegal move: you sent \"107 6\", which is off the board",
        ),
        (
            illegal("a1", "the move flips no disc", Some("0 0")),
            "illegal move: you sent \"0 0\" (a1), which flips no disc",
        ),
        (
            illegal(
                "H8",
                "forbidden point for black (double-three)",
                Some("MOVE H8"),
            ),
            "illegal move: you sent \"MOVE H8\" (H8), which is a forbidden point for black \
             (double-three)",
        ),
        (
            illegal(
                "up",
                "not achievable direction: it leaves the board unchanged",
                Some("0"),
            ),
            "illegal move: you sent \"0\" (up): not achievable direction: it leaves the board \
             unchanged",
        ),
        (
            illegal("a1", "the move flips no disc", None),
            "illegal move a1 (the move flips no disc)",
        ),
        (
            Reason::Crash {
                seat: Seat::FIRST,
                exit_code: None,
                signal: Some(11),
            },
            "crashed (signal 11, SIGSEGV)",
        ),
    ];
    for (reason, text) in cases {
        assert_eq!(reason.to_string(), text);
    }
    let exit = |signal: i32, killed_by: Killer, why: Option<&str>| Exit {
        code: None,
        signal: Some(signal),
        killed_by: Some(killed_by),
        why: why.map(String::from),
    };
    assert_eq!(
        exit(9, Killer::Arbiter, Some("memory limit")).to_string(),
        "signal 9 (SIGKILL), killed by arbiter: memory limit"
    );
    assert_eq!(
        exit(9, Killer::Outside, None).to_string(),
        "signal 9 (SIGKILL), sent from outside"
    );
    assert_eq!(
        exit(6, Killer::Itself, None).to_string(),
        "signal 6 (SIGABRT), from the program itself"
    );
    let code = Exit {
        code: Some(1),
        ..Exit::default()
    };
    assert_eq!(code.to_string(), "exit code 1");
}

/// Every kind of reason reads back as written; a field its kind does not take, a missing one,
/// or an unknown kind is refused with serde's wording.
#[test]
fn reasons_read_back_and_refuse_stray_fields() {
    let s = Seat::SECOND;
    let all = [
        Reason::Normal,
        Reason::IllegalMove {
            seat: s,
            mv: "d3".into(),
            why: "the move flips no disc".into(),
            line: Some("d3 ".into()),
        },
        Reason::IllegalMove {
            seat: s,
            mv: "d3".into(),
            why: "w".into(),
            line: None,
        },
        Reason::MalformedOutput {
            seat: s,
            line: "hello".into(),
        },
        Reason::OutOfTurn {
            seat: s,
            line: "x".into(),
        },
        Reason::MoveTime {
            seat: s,
            limit_ms: 1000,
        },
        Reason::GameTime {
            seat: s,
            limit_ms: 9000,
        },
        Reason::Crash {
            seat: s,
            exit_code: Some(1),
            signal: None,
        },
        Reason::Crash {
            seat: s,
            exit_code: None,
            signal: Some(11),
        },
        Reason::Memory {
            seat: s,
            limit_bytes: 1 << 28,
        },
        Reason::ExitedEarly {
            seat: s,
            exit_code: None,
        },
        Reason::FailedToStart {
            seat: s,
            error: "no such file".into(),
        },
        Reason::NoHandshake { seat: s },
        Reason::ProtocolError {
            seat: s,
            message: "m".into(),
        },
        Reason::Aborted {
            message: "cancelled".into(),
        },
    ];
    for r in all {
        let text = serde_json::to_string(&r).unwrap();
        let back: Reason = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r, "{text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            serde_json::from_value::<Reason>(value).unwrap(),
            r,
            "{text}"
        );
    }
    let err = |text: &str| {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        serde_json::from_value::<Reason>(v).unwrap_err().to_string()
    };
    assert_eq!(
        err(r#"{"kind":"move_time","seat":1,"limit_ms":5,"line":"x"}"#),
        "unknown field `line`, expected `seat` or `limit_ms`"
    );
    assert_eq!(
        err(r#"{"kind":"normal","seat":1}"#),
        "unknown field `seat`, there are no fields"
    );
    assert_eq!(
        err(r#"{"kind":"memory","seat":0}"#),
        "missing field `limit_bytes`"
    );
    assert_eq!(err(r#"{"seat":0}"#), "missing field `kind`");
    assert!(err(r#"{"kind":"nap","seat":0}"#)
        .starts_with("unknown variant `nap`, expected one of `normal`, `illegal_move`"));
    assert!(err(r#"{"kind":"crash","seat":0,"colour":1}"#).starts_with("unknown field `colour`"));
}

/// Every game's configuration reads back as written; the named game's fields are required,
/// another game's are ignored, an unknown game is refused with serde's wording.
#[test]
fn game_configs_read_back_and_name_what_is_missing() {
    let all = [
        GameConfig::Reversi(reversi::Config { size: 8 }),
        GameConfig::Gomoku(gomoku::Config {
            size: 15,
            rule: gomoku::Rule::Renju,
        }),
        GameConfig::Duel2048(duel2048::Config {
            rounds: 500,
            random: RandomSource::Seed(7),
        }),
        GameConfig::Duel2048(duel2048::Config {
            rounds: 2,
            random: RandomSource::Sequence(vec![1, 2]),
        }),
    ];
    for g in all {
        let text = serde_json::to_string(&g).unwrap();
        assert_eq!(
            serde_json::from_str::<GameConfig>(&text).unwrap(),
            g,
            "{text}"
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            serde_json::from_value::<GameConfig>(value).unwrap(),
            g,
            "{text}"
        );
    }
    let read = |text: &str| serde_json::from_str::<GameConfig>(text).map_err(|e| e.to_string());
    assert_eq!(
        read(r#"{"name":"reversi","size":6,"rule":"renju"}"#),
        Ok(GameConfig::Reversi(reversi::Config { size: 6 }))
    );
    let err = |text: &str| read(text).unwrap_err();
    assert!(err(r#"{"name":"gomoku","size":15}"#).starts_with("missing field `rule`"));
    assert!(err(r#"{"size":15}"#).starts_with("missing field `name`"));
    assert!(err(r#"{"name":"chess"}"#)
        .starts_with("unknown variant `chess`, expected one of `reversi`, `gomoku`, `duel2048`"));
    assert!(err(r#"{"name":"duel2048","rounds":5,"random":{"dice":1}}"#)
        .starts_with("unknown variant `dice`"));
}
