//! The player's engine side, natively: checkpointed frames agree with the engine's own
//! frame-by-frame replay (`Rebuilt::frame`, which replays from the start), and every kind of
//! bad document gets its own error kind.

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::duel2048::{self, RandomSource};
use arbiter_engine::replay::{MoveRecord, Player, Reason, Replay};
use arbiter_engine::{gomoku, reversi, Game, Seat};
use arbiter_player::session::{Session, CHECKPOINT_EVERY};

/// A deterministic game: always the `pick`-th legal move (mod count).
fn game(config: GameConfig, max: usize) -> Replay {
    let players = [Seat::First, Seat::Second].map(|seat| Player {
        name: format!("p{}", seat.index()),
        seat,
        command: None,
    });
    let mut r = Replay::new(config.clone(), players);
    let mut g = AnyGame::new(&config).unwrap();
    let mut i = 7usize;
    while r.moves.len() < max {
        let Some(seat) = g.to_move() else { break };
        let legal = g.legal_moves();
        i = i.wrapping_mul(31).wrapping_add(17);
        let mv = legal[i % legal.len()];
        r.moves.push(MoveRecord::new(seat, g.format_move(mv)));
        g.play(mv).unwrap();
    }
    match g.outcome() {
        Some(o) => {
            r.result.winner = o.winner;
            r.result.reason = Reason::Normal;
        }
        None => {
            let seat = g.to_move().unwrap();
            r.result.winner = Some(seat.other());
            r.result.reason = Reason::MoveTime {
                seat,
                limit_ms: 1000,
            };
        }
    }
    r
}

/// The referee's text symbols, written independently of the player's view code.
fn lines(g: &AnyGame) -> Vec<String> {
    let ch = |s: Option<Seat>| match s {
        Some(Seat::First) => 'X',
        Some(Seat::Second) => 'O',
        None => '.',
    };
    match g {
        AnyGame::Reversi(r) => (0..r.size())
            .map(|row| (0..r.size()).map(|c| ch(r.disc(row, c))).collect())
            .collect(),
        AnyGame::Gomoku(go) => (0..go.size())
            .map(|y| {
                (0..go.size())
                    .map(|x| ch(go.stone(gomoku::Point { x, y })))
                    .collect()
            })
            .collect(),
        AnyGame::Duel2048(d) => d.board_text().lines().map(str::to_string).collect(),
    }
}

fn configs() -> Vec<GameConfig> {
    vec![
        GameConfig::Reversi(reversi::Config { size: 8 }),
        GameConfig::Reversi(reversi::Config { size: 16 }),
        GameConfig::Gomoku(gomoku::Config {
            size: 15,
            rule: gomoku::Rule::Renju,
        }),
        GameConfig::Duel2048(duel2048::Config {
            rounds: 40,
            random: RandomSource::Seed(3),
        }),
    ]
}

#[test]
fn checkpointed_frames_match_the_engines_replay() {
    for config in configs() {
        let replay = game(config, 400);
        let text = replay.to_json();
        let (_, rebuilt) = Replay::read(&text).unwrap();
        let s = Session::load(&text).unwrap();
        assert_eq!(s.frame_count(), rebuilt.frame_count());
        assert!(
            s.frame_count() > CHECKPOINT_EVERY,
            "long enough to cross checkpoints"
        );
        for k in 0..s.frame_count() {
            let want = rebuilt.frame(k).unwrap();
            let view = s.frame(k).unwrap();
            assert_eq!(view.board, lines(&want), "{} frame {k}", want.name());
            assert_eq!(view.scores, want.scores());
            assert_eq!(view.to_move, want.to_move().map(|s| s as u8));
        }
        assert!(s.frame(s.frame_count()).is_none());
    }
}

#[test]
fn the_last_move_and_flips_are_reported() {
    let replay = game(GameConfig::Reversi(reversi::Config { size: 8 }), 10);
    let s = Session::load(&replay.to_json()).unwrap();
    let v = s.frame(1).unwrap();
    // The first move flips exactly one disc in the start position of Reversi.
    assert_eq!(v.flipped.len(), 1);
    let [r, c] = v.last_cell.unwrap();
    assert_eq!(v.board[r as usize].as_bytes()[c as usize], b'X');
    let [fr, fc] = v.flipped[0];
    assert_eq!(v.board[fr as usize].as_bytes()[fc as usize], b'X');
}

#[test]
fn failure_verdicts_read_in_words() {
    let replay = game(GameConfig::Reversi(reversi::Config { size: 8 }), 9);
    let s = Session::load(&replay.to_json()).unwrap();
    let info = s.info();
    // After 9 moves White is to move; the verdict is against White at move 10.
    assert_eq!(info.result_head, "Black wins");
    assert_eq!(
        info.result_text,
        "White: move time exceeded (1000 ms) at move 10"
    );
}

#[test]
fn bad_documents_get_their_kind() {
    let good = game(GameConfig::Reversi(reversi::Config { size: 8 }), 12);
    let v: serde_json::Value = serde_json::from_str(&good.to_json()).unwrap();
    let kind = |text: String| Session::load(&text).err().map(|e| e.kind);
    assert_eq!(kind("{oops".into()), Some("malformed_json"));
    assert_eq!(kind("[1,2]".into()), Some("not_a_replay"));
    let mut w = v.clone();
    w["version"] = 9.into();
    assert_eq!(kind(w.to_string()), Some("wrong_version"));
    let mut w = v.clone();
    w["game"] = serde_json::json!({"name": "chess"});
    assert_eq!(kind(w.to_string()), Some("unknown_game"));
    let mut w = v.clone();
    w["moves"][6]["move"] = w["moves"][0]["move"].clone();
    let e = Session::load(&w.to_string()).err().unwrap();
    assert_eq!((e.kind, e.move_number), ("illegal_move", Some(7)));
    assert!(kind(v.to_string()).is_none());
}

#[test]
fn duel_views_show_the_next_cell_of_the_placer() {
    let replay = game(
        GameConfig::Duel2048(duel2048::Config {
            rounds: 10,
            random: RandomSource::Seed(1),
        }),
        40,
    );
    let text = replay.to_json();
    let (_, rebuilt) = Replay::read(&text).unwrap();
    let s = Session::load(&text).unwrap();
    for k in 0..s.frame_count() {
        let AnyGame::Duel2048(d) = rebuilt.frame(k).unwrap() else {
            unreachable!()
        };
        let v = s.frame(k).unwrap();
        match v.next_placer {
            Some(p) => {
                let seat = Seat::from_index(p as usize).unwrap();
                assert_eq!(v.next_cell, d.next_cell(seat).map(|(r, c)| [r, c]));
            }
            None => assert!(d.outcome().is_some() || k % 4 >= 2),
        }
        assert_eq!(v.cells.len(), 32);
    }
}
