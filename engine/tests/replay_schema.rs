//! The JSON Schema in docs/replay.schema.json accepts the replays the engine writes and rejects
//! what the strict reader rejects for shape reasons, so the two documents of the format agree.

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::duel2048::{self, RandomSource};
use arbiter_engine::replay::{GameResult, MoveRecord, Player, Reason, Replay};
use arbiter_engine::{gomoku, reversi, Seat};
use serde_json::{json, Value};

fn schema() -> jsonschema::Validator {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/replay.schema.json");
    let text = std::fs::read_to_string(path).expect("schema file");
    let value: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&value).expect("schema is a valid JSON Schema")
}

fn game(config: GameConfig, plies: usize, reason: Option<Reason>) -> Replay {
    let mut g = AnyGame::new(&config).unwrap();
    let mut r = Replay::new(
        config,
        [
            Player {
                name: "a".into(),
                seat: Seat::FIRST,
                command: Some("./a".into()),
            },
            Player {
                name: "b".into(),
                seat: Seat::SECOND,
                command: None,
            },
        ],
    );
    while let (Some(seat), true) = (g.to_move(), r.moves.len() < plies) {
        let mv = g.legal_moves()[r.moves.len() % 3 % g.legal_moves().len()];
        let mut rec = MoveRecord::new(seat, g.format_move(mv));
        rec.time_ms = Some(1.5);
        rec.log = Some("hi".into());
        g.play(mv).unwrap();
        r.moves.push(rec);
    }
    r.result = match (reason, g.outcome()) {
        (Some(reason), _) => GameResult {
            winner: reason.culprit().map(Seat::other),
            places: None,
            reason,
        },
        (None, Some(o)) => GameResult {
            winner: o.winner,
            places: None,
            reason: Reason::Normal,
        },
        (None, None) => GameResult {
            winner: None,
            places: None,
            reason: Reason::Aborted {
                message: "stop".into(),
            },
        },
    };
    r
}

#[test]
fn written_replays_match_the_schema() {
    let v = schema();
    let reasons = [
        None,
        Some(Reason::IllegalMove {
            seat: Seat::FIRST,
            mv: "a1".into(),
            why: "no".into(),
            line: Some("0 0".into()),
        }),
        Some(Reason::MalformedOutput {
            seat: Seat::SECOND,
            line: "x".into(),
        }),
        Some(Reason::OutOfTurn {
            seat: Seat::FIRST,
            line: "x".into(),
        }),
        Some(Reason::MoveTime {
            seat: Seat::FIRST,
            limit_ms: 5000,
        }),
        Some(Reason::GameTime {
            seat: Seat::SECOND,
            limit_ms: 180000,
        }),
        Some(Reason::Crash {
            seat: Seat::FIRST,
            exit_code: None,
            signal: Some(11),
        }),
        Some(Reason::Memory {
            seat: Seat::FIRST,
            limit_bytes: 1,
        }),
        Some(Reason::ExitedEarly {
            seat: Seat::FIRST,
            exit_code: Some(0),
        }),
        Some(Reason::FailedToStart {
            seat: Seat::FIRST,
            error: "no".into(),
        }),
        Some(Reason::NoHandshake { seat: Seat::SECOND }),
        Some(Reason::ProtocolError {
            seat: Seat::SECOND,
            message: "m".into(),
        }),
        Some(Reason::Aborted {
            message: "m".into(),
        }),
    ];
    let configs = [
        GameConfig::Reversi(reversi::Config { size: 6 }),
        GameConfig::Gomoku(gomoku::Config {
            size: 9,
            rule: gomoku::Rule::Renju,
        }),
        GameConfig::Gomoku(gomoku::Config {
            size: 9,
            rule: gomoku::Rule::RenjuGomocup,
        }),
        GameConfig::Duel2048(duel2048::Config {
            rounds: 3,
            random: RandomSource::Seed(1),
        }),
        GameConfig::Duel2048(duel2048::Config {
            rounds: 2,
            random: RandomSource::Sequence(vec![1, 2]),
        }),
    ];
    for config in configs {
        for reason in &reasons {
            let r = game(config.clone(), 12, reason.clone());
            let doc: Value = serde_json::from_str(&r.to_json()).unwrap();
            let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{errors:?}\n{doc}");
        }
    }
}

#[test]
fn the_schema_rejects_what_the_reader_rejects() {
    let v = schema();
    let good: Value = serde_json::from_str(
        &game(GameConfig::Reversi(reversi::Config { size: 8 }), 4, None).to_json(),
    )
    .unwrap();
    assert!(v.is_valid(&good));
    let mut bad = Vec::new();
    let mut e = good.clone();
    e["format"] = json!("other");
    bad.push(e);
    let mut e = good.clone();
    e["version"] = json!(2);
    bad.push(e);
    let mut e = good.clone();
    e["extra"] = json!(1);
    bad.push(e);
    let mut e = good.clone();
    e["game"]["size"] = json!(7);
    bad.push(e);
    let mut e = good.clone();
    e["moves"][0]["seat"] = json!(8);
    bad.push(e);
    let mut e = good.clone();
    e["result"]["reason"] = json!({"kind": "crash"});
    bad.push(e);
    let mut e = good;
    e["players"] = json!([{"name": "x", "seat": 1}, {"name": "y", "seat": 0}]);
    bad.push(e);
    for doc in bad {
        assert!(!v.is_valid(&doc), "schema accepted {doc}");
        assert!(
            Replay::read(&doc.to_string()).is_err(),
            "reader accepted {doc}"
        );
    }
}
