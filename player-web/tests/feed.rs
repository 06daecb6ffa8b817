//! The live feed, natively: docs/live.md's contents gathered into a replay give the same
//! frames as the saved replay, a game the rules ended reads before its `end` arrives, and a
//! person's move is checked through the engine (renju's forbidden points included).

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::replay::{MoveRecord, Player, Reason, Replay};
use arbiter_engine::{gomoku, reversi, Seat};
use arbiter_player::feed::{cell_move, check_move, legal_names, Feed};
use serde_json::json;

fn players() -> [Player; 2] {
    [Seat::FIRST, Seat::SECOND].map(|seat| Player {
        name: format!("p{}", seat.index()),
        seat,
        command: None,
    })
}

/// A whole game of first legal moves, as the referee would save it.
fn finished(config: GameConfig) -> Replay {
    let mut r = Replay::new(config.clone(), players());
    let mut g = AnyGame::new(&config).unwrap();
    while let Some(seat) = g.to_move() {
        let mv = g.legal_moves()[0];
        r.moves.push(MoveRecord::new(seat, g.format_move(mv)));
        g.play(mv).unwrap();
    }
    let o = g.outcome().unwrap();
    r.result.winner = o.winner;
    r.result.reason = Reason::Normal;
    r.scores = Some(g.scores());
    r
}

fn start_content(r: &Replay, seat: Option<u8>) -> String {
    let mut skeleton = r.clone();
    skeleton.moves.clear();
    skeleton.result = Replay::new(r.game.clone(), players()).result;
    skeleton.scores = None;
    let mut v =
        json!({"type": "start", "replay": skeleton, "limits": {"move_ms": 5000, "game_ms": null}});
    if let Some(s) = seat {
        v["seat"] = json!(s);
    }
    v.to_string()
}

fn reversi8() -> GameConfig {
    GameConfig::Reversi(reversi::Config { size: 8 })
}

#[test]
fn contents_rebuild_the_saved_replay() {
    let saved = finished(reversi8());
    let mut feed = Feed::default();
    feed.apply(&start_content(&saved, None)).unwrap();
    assert_eq!(feed.limits, [Some(5000.0), None]);
    assert_eq!(feed.seat, None);
    let mut session = None;
    for (i, m) in saved.moves.iter().enumerate() {
        feed.apply(&json!({"type": "move", "move": m}).to_string())
            .unwrap();
        // Every move joins the session as it comes, checked; the last one (over by the rules)
        // too, before the end says so.
        feed.drain_into(&mut session).unwrap();
        let s = session.as_ref().unwrap();
        assert_eq!((s.frame_count(), s.checked()), (i + 2, i + 2));
        assert!(s.is_live() && !s.done());
    }
    assert!(!feed.ended);
    let end = json!({"type": "end", "result": saved.result, "scores": saved.scores});
    feed.apply(&end.to_string()).unwrap();
    assert!(feed.ended);
    feed.drain_into(&mut session).unwrap();
    let live = session.unwrap();
    assert!(live.done() && !live.is_live());
    let file = arbiter_player::Session::load(&saved.to_json()).unwrap();
    assert_eq!(live.frame_count(), file.frame_count());
    for k in 0..file.frame_count() {
        assert_eq!(live.frame(k).unwrap().board, file.frame(k).unwrap().board);
    }
    assert_eq!(live.info().result_head, file.info().result_head);
    assert_eq!(live.info().result_text, file.info().result_text);
    // Nothing after the end, nothing before a start, nothing that is not JSON.
    assert!(feed
        .apply(&json!({"type": "move", "move": saved.moves[0]}).to_string())
        .is_err());
    assert!(Feed::default()
        .apply(&json!({"type": "move"}).to_string())
        .is_err());
    assert!(Feed::default().apply("{oops").is_err());
    assert!(Feed::default()
        .apply(r#"{"type":"start","replay":3}"#)
        .is_err());
}

#[test]
fn a_move_the_engine_refuses_leaves_the_session_as_it_was() {
    let saved = finished(reversi8());
    let mut feed = Feed::default();
    feed.apply(&start_content(&saved, None)).unwrap();
    let mut session = None;
    for m in &saved.moves[..3] {
        feed.apply(&json!({"type": "move", "move": m}).to_string())
            .unwrap();
    }
    feed.drain_into(&mut session).unwrap();
    // The first move again: illegal now.
    let bad = json!({"type": "move", "move": saved.moves[0]});
    feed.apply(&bad.to_string()).unwrap();
    let e = feed.drain_into(&mut session).unwrap_err();
    assert_eq!((e.kind, e.move_number), ("illegal_move", Some(4)));
    let s = session.unwrap();
    assert_eq!((s.frame_count(), s.checked()), (4, 4));
    assert!(s.frame(3).is_some());
    // A result the moves contradict is refused at the end, as in a saved replay.
    let mut feed = Feed::default();
    feed.apply(&start_content(&saved, None)).unwrap();
    let end = json!({"type": "end", "result": saved.result, "scores": saved.scores});
    feed.apply(&end.to_string()).unwrap();
    let mut session = None;
    let e = feed.drain_into(&mut session).unwrap_err();
    assert_eq!(e.kind, "invalid_replay");
}

#[test]
fn a_seat_move_is_checked_before_it_is_sent() {
    let saved = finished(reversi8());
    let mut feed = Feed::default();
    feed.apply(&start_content(&saved, Some(0))).unwrap();
    assert_eq!(feed.seat, Some(0));
    let mut session = None;
    feed.drain_into(&mut session).unwrap();
    let s = session.unwrap();
    assert_eq!(check_move(&s, Some(0), "d3").as_deref(), Ok("d3"));
    assert_eq!(
        check_move(&s, Some(0), &cell_move("reversi", [2, 3])).as_deref(),
        Ok("d3")
    );
    let refused = check_move(&s, Some(0), "a1").unwrap_err();
    assert!(refused.contains("a1"), "{refused}");
    assert_eq!(
        check_move(&s, Some(1), "d3").unwrap_err(),
        "it is not your turn"
    );
    assert!(check_move(&s, None, "d3").is_err());
    assert!(check_move(&s, Some(0), "zz").is_err());
    assert_eq!(legal_names(&s).len(), 4);
}

#[test]
fn renju_refuses_black_on_a_forbidden_point() {
    let config = GameConfig::Gomoku(gomoku::Config {
        size: 15,
        rule: gomoku::Rule::Renju,
    });
    // Black F8 G8 and H9 H10: H8 would make two open threes.
    let mut r = Replay::new(config.clone(), players());
    r.opening = ["F8", "A1", "G8", "A15", "H9", "O1", "H10", "O15"]
        .map(String::from)
        .to_vec();
    let mut feed = Feed::default();
    feed.apply(&start_content(&r, Some(0))).unwrap();
    let mut session = None;
    feed.drain_into(&mut session).unwrap();
    let s = session.unwrap();
    let view = s.frame(0).unwrap();
    assert!(
        !view.forbidden.is_empty(),
        "the opening leaves a forbidden point"
    );
    assert!(view.forbidden.iter().any(|&(y, x, _)| (y, x) == (7, 7)));
    let refused = check_move(&s, Some(0), &cell_move("gomoku", [7, 7])).unwrap_err();
    assert!(refused.contains("illegal"), "{refused}");
}
