//! The player's engine side, natively: checkpointed frames agree with the engine's own
//! frame-by-frame replay (`Rebuilt::frame`, which replays from the start), and every kind of
//! bad document gets its own error kind.

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::duel2048::{self, RandomSource};
use arbiter_engine::replay::{Exit, Failure, MoveRecord, Player, Reason, Replay};
use arbiter_engine::{gomoku, reversi, Game, Seat};
use arbiter_player::session::{Session, CHECKPOINT_EVERY};

/// A deterministic game: always the `pick`-th legal move (mod count).
fn game(config: GameConfig, max: usize) -> Replay {
    let players = [Seat::FIRST, Seat::SECOND].map(|seat| Player {
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
        Some(Seat::FIRST) => 'X',
        Some(_) => 'O',
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
        AnyGame::Module(m) => vec![m.view(arbiter_engine::Viewer::All)],
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
            assert_eq!(view.to_move, want.to_move().map(u8::from));
        }
        assert!(s.frame(s.frame_count()).is_none());
    }
}

/// A live game's newest frame is a position as soon as its move came, a checkpoint's frame
/// (every CHECKPOINT_EVERY-th) included: it was not until the next move, so a person whose turn
/// came at frame 16 was never shown it and the game waited for ever.
#[test]
fn a_live_games_newest_frame_is_always_a_position() {
    for config in configs() {
        let whole = game(config.clone(), 3 * CHECKPOINT_EVERY + 2);
        let mut start = whole.clone();
        start.moves.clear();
        let mut s = Session::live(start).unwrap();
        for (n, record) in whole.moves.iter().enumerate() {
            s.push(record.clone()).unwrap();
            assert!(
                s.position(n + 1).is_some(),
                "{}: frame {} has no position",
                config.name(),
                n + 1
            );
        }
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
        "White ran out of its move clock (1 s a move) at move 10"
    );
}

/// The result is said once: by the last frame's status line when it states it (the rules
/// ended the game, or a failure verdict), by the result box otherwise (an abort).
#[test]
fn the_last_frame_says_the_result_once() {
    let normal = game(GameConfig::Reversi(reversi::Config { size: 8 }), 400);
    assert_eq!(normal.result.reason, Reason::Normal);
    let s = Session::load(&normal.to_json()).unwrap();
    let last = s.frame(s.frame_count() - 1).unwrap();
    assert!(last.status.starts_with("Game over: "), "{}", last.status);
    assert!(
        last.status.contains(&s.info().result_head),
        "{}",
        last.status
    );
    assert!(s.info().result_in_status, "the box would say it again");

    let timed_out = game(GameConfig::Reversi(reversi::Config { size: 8 }), 9);
    let s = Session::load(&timed_out.to_json()).unwrap();
    let last = s.frame(s.frame_count() - 1).unwrap();
    assert!(last.status.starts_with("Black wins"), "{}", last.status);
    assert!(s.info().result_in_status);

    let mut aborted = game(GameConfig::Reversi(reversi::Config { size: 8 }), 9);
    aborted.result.winner = None;
    aborted.result.reason = Reason::Aborted {
        message: "the tournament was cancelled".into(),
    };
    let s = Session::load(&aborted.to_json()).unwrap();
    let last = s.frame(s.frame_count() - 1).unwrap();
    assert!(!last.status.contains("Draw"), "{}", last.status);
    assert!(!s.info().result_in_status, "only the box can say it");
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

/// 8x8 Reversi after `n` deterministic moves, ended by `reason` against the side to move,
/// with a failure record.
fn failed(n: usize, reason: impl Fn(Seat) -> Reason, failure: Option<Failure>) -> String {
    let mut r = game(GameConfig::Reversi(reversi::Config { size: 8 }), n);
    let (_, rebuilt) = Replay::read(&r.to_json()).unwrap();
    let seat = rebuilt.end.to_move().unwrap();
    r.result.winner = Some(seat.other());
    r.result.reason = reason(seat);
    r.failure = failure.map(|mut f| {
        f.seat = seat;
        f
    });
    r.to_json()
}

fn record() -> Failure {
    Failure {
        seat: Seat::FIRST,
        log: Some("depth 3 eval +2".into()),
        stderr: Some("Traceback (most recent call last):\n  File \"b.py\"\nKeyError: 7\n".into()),
        exit: None,
        time_ms: Some(5051.0),
        clock_ms: Some(812.0),
    }
}

#[test]
fn an_illegal_move_on_the_board_is_marked_on_the_last_frame_only() {
    // d4 (row 3, col 3) holds a disc from the start: occupied.
    let text = failed(
        6,
        |seat| Reason::IllegalMove {
            seat,
            mv: "d4".into(),
            why: "the point is already occupied".into(),
            line: Some("3 3".into()),
        },
        Some(record()),
    );
    let s = Session::load(&text).unwrap();
    let last = s.frame_count() - 1;
    let v = s.frame(last).unwrap();
    let mark = v
        .failure
        .as_ref()
        .expect("a failure mark on the last frame");
    assert_eq!(mark.cell, Some([3, 3]));
    assert_eq!(mark.attempt.as_deref(), Some("d4"));
    assert!(
        v.status
            .contains("sent \"3 3\" (d4): the point is already occupied"),
        "{}",
        v.status
    );
    assert!(
        v.description.contains("Attempted move, not played: d4"),
        "{}",
        v.description
    );
    assert!(s.frame(last - 1).unwrap().failure.is_none());
    let panel = &s.failure().unwrap().panel;
    assert!(
        panel.contains("depth 3 eval +2") && panel.contains("KeyError: 7"),
        "{panel}"
    );
}

#[test]
fn a_square_off_the_board_is_said_in_words() {
    let text = failed(
        5,
        |seat| Reason::IllegalMove {
            seat,
            mv: "Reversi(Place { row: 107, col: 6 })".into(),
            why: "the point is off the board".into(),
            line: Some("107 6".into()),
        },
        None,
    );
    let s = Session::load(&text).unwrap();
    let v = s.frame(s.frame_count() - 1).unwrap();
    let mark = v.failure.unwrap();
    assert_eq!((mark.cell, mark.direction), (None, None));
    assert!(
        mark.caption
            .contains("sent \"107 6\", which is not on the 8×8 board"),
        "{}",
        mark.caption
    );
}

#[test]
fn timeouts_name_the_clock_and_crashes_the_error_line() {
    let text = failed(
        7,
        |seat| Reason::GameTime {
            seat,
            limit_ms: 180_000,
        },
        Some(record()),
    );
    let s = Session::load(&text).unwrap();
    let mark = s.frame(7).unwrap().failure.unwrap();
    assert_eq!(mark.clock, Some("game"));
    assert!(
        mark.caption.contains(
            "ran out of its game clock (180 s a game): 812 ms left when asked, 5.05 s used"
        ),
        "{}",
        mark.caption
    );
    let text = failed(
        7,
        |seat| Reason::Crash {
            seat,
            exit_code: Some(1),
            signal: None,
        },
        Some(Failure {
            exit: Some(Exit {
                code: Some(1),
                ..Exit::default()
            }),
            ..record()
        }),
    );
    let s = Session::load(&text).unwrap();
    let info = s.info();
    assert_eq!(info.result_head, "Black wins");
    assert!(
        info.result_text
            .contains("crashed with exit code 1: KeyError: 7 at move 8"),
        "{}",
        info.result_text
    );
}

#[test]
fn a_duel_direction_is_located_and_levels_read_in_words() {
    let mut r = game(
        GameConfig::Duel2048(duel2048::Config {
            rounds: 10,
            random: RandomSource::Seed(1),
        }),
        400,
    );
    let s = Session::load(&r.to_json()).unwrap();
    assert!(
        s.info().result_text.starts_with("decided at "),
        "{}",
        s.info().result_text
    );
    // Cut the game at a slide with a direction that changes nothing: that direction is illegal.
    let (_, rebuilt) = Replay::read(&r.to_json()).unwrap();
    let k = (0..rebuilt.frame_count())
        .find(|&k| {
            let g = rebuilt.frame(k).unwrap();
            let AnyGame::Duel2048(d) = &g else {
                return false;
            };
            g.to_move().is_some()
                && d.step_kind() == arbiter_engine::error::StepKind::Slide
                && !g.legal_moves().is_empty()
                && g.legal_moves().len() < 4
        })
        .expect("a slide with a blocked direction");
    let g = rebuilt.frame(k).unwrap();
    let blocked = ["up", "down", "left", "right"]
        .into_iter()
        .find(|d| g.clone().play_text(d).is_err())
        .unwrap();
    r.moves.truncate(k);
    let seat = g.to_move().unwrap();
    r.result.winner = Some(seat.other());
    r.result.reason = Reason::IllegalMove {
        seat,
        mv: blocked.into(),
        why: "not achievable direction".into(),
        line: None,
    };
    let s = Session::load(&r.to_json()).unwrap();
    let mark = s.frame(k).unwrap().failure.unwrap();
    assert_eq!(mark.direction, Some(blocked));
    assert!(
        mark.caption.contains(&format!("played {blocked}")),
        "{}",
        mark.caption
    );
}

#[test]
fn the_board_is_described_in_words() {
    let replay = game(GameConfig::Reversi(reversi::Config { size: 8 }), 3);
    let s = Session::load(&replay.to_json()).unwrap();
    let v = s.frame(0).unwrap();
    // The start position: d5 e4 black, d4 e5 white (a1 = row 0, col 0).
    assert!(
        v.description
            .starts_with("Black to move. Black, 2 discs: e4 d5; White, 2 discs: d4 e5."),
        "{}",
        v.description
    );
    assert!(
        v.description.contains("Legal for Black: d3 c4 f5 e6."),
        "{}",
        v.description
    );
    let v = s.frame(1).unwrap();
    assert!(
        v.description.contains("Last move: Black "),
        "{}",
        v.description
    );
    assert!(v.description.contains(", turned "), "{}", v.description);

    let replay = game(
        GameConfig::Gomoku(gomoku::Config {
            size: 15,
            rule: gomoku::Rule::Renju,
        }),
        2,
    );
    let s = Session::load(&replay.to_json()).unwrap();
    let v = s.frame(2).unwrap();
    assert!(
        v.description.contains("Black, 1 stone: "),
        "{}",
        v.description
    );
    assert!(!v.description.contains("..."), "{}", v.description);
}
