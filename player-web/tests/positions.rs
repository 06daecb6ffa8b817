//! A module game whose chance the hub keeps back, live: the hub sends a position with each
//! content, and the player's session, kept from move to move (`Feed::drain_into`), plays each
//! new move from the positions that came after it was opened.

use std::sync::{Arc, Mutex};

use arbiter_engine::any::GameConfig;
use arbiter_engine::error::ConfigError;
use arbiter_engine::module::{DynRules, ModuleConfig, ModuleHost, ModuleRef};
use arbiter_engine::replay::{GameResult, MoveRecord, Player, Reason, Replay};
use arbiter_engine::Seat;
use arbiter_player::feed::{check_move, legal_names, Feed, Positions};
use serde_json::{json, Value};

/// The positions of the game followed, as the page's host keeps them (`live::HOST`).
static SHOWN: Mutex<Option<Arc<Positions>>> = Mutex::new(None);
/// Held by each test: they share [`SHOWN`], as one page shares its host.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

struct Host;

impl ModuleHost for Host {
    fn open(&self, c: &ModuleConfig) -> Result<Box<dyn DynRules>, ConfigError> {
        let shown = SHOWN.lock().unwrap().clone().filter(|p| p.config == *c);
        match shown {
            Some(p) => Ok(p.open()),
            None => Err(ConfigError {
                message: "no positions for this module".into(),
            }),
        }
    }
}

static HOST: Host = Host;

fn config() -> ModuleConfig {
    ModuleConfig {
        module: ModuleRef {
            name: "hidden-coins".into(),
            version: "1.0.0".into(),
            sha256: "ab".repeat(32),
        },
        config: "{}".into(),
        seed: 0,
    }
}

/// The position after `ply` plies: seats take turns, 4 plies in all, seat 0 wins.
fn position(ply: usize) -> Value {
    let over = ply == 4;
    json!({
        "to_move": if over { Value::Null } else { json!(ply % 2) },
        "scores": [ply as i64, 0],
        "outcome": if over { json!({"winner": 0, "reason": "more coins"}) } else { Value::Null },
        "view": {"ply": ply},
        "legal": if over { json!([]) } else { json!(["heads", "tails"]) },
    })
}

fn drain(feed: &mut Feed, session: &mut Option<arbiter_player::Session>) {
    *SHOWN.lock().unwrap() = feed.positions.clone();
    feed.drain_into(session).unwrap();
}

#[test]
fn a_live_game_of_hidden_chance_plays_from_the_positions_as_they_come() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    arbiter_engine::module::install_host(&HOST);
    let players = [Seat::FIRST, Seat::SECOND].map(|seat| Player {
        name: format!("p{}", seat.index()),
        seat,
        command: None,
    });
    let replay = Replay::new(GameConfig::Module(config()), players);
    let mut feed = Feed::default();
    let start = json!({"type": "start", "replay": replay, "seat": 1, "position": position(0)});
    feed.apply(&start.to_string()).unwrap();
    let mut session = None;
    drain(&mut feed, &mut session);
    assert_eq!(session.as_ref().unwrap().checked(), 1);

    for ply in 0..4 {
        let seat = Seat::from_index(ply % 2).unwrap();
        let mv = if ply % 2 == 0 { "heads" } else { "tails" };
        let record = serde_json::to_value(MoveRecord::new(seat, mv.into())).unwrap();
        let content = json!({"type": "move", "move": record, "position": position(ply + 1)});
        feed.apply(&content.to_string()).unwrap();
        // The session opened at the start plays this move from the position just sent.
        drain(&mut feed, &mut session);
        let s = session.as_ref().unwrap();
        assert_eq!(s.checked(), ply + 2, "ply {}", ply + 1);
        let g = s.position(ply + 1).unwrap();
        assert_eq!(g.scores(), vec![(ply + 1) as i64, 0]);
        if ply == 0 {
            // Seat 1's turn now: its move is checked against the position's choices.
            assert_eq!(legal_names(s), ["heads", "tails"]);
            assert_eq!(check_move(s, Some(1), "tails").unwrap(), "tails");
            assert!(check_move(s, Some(1), "edge").is_err());
            assert!(check_move(s, Some(0), "heads").is_err());
        }
    }
    let s = session.as_ref().unwrap();
    assert!(s.position(4).unwrap().to_move().is_none());
    assert!(!s.done(), "the result waits for the end");

    let result = GameResult {
        winner: Some(Seat::FIRST),
        places: None,
        reason: Reason::Normal,
    };
    let end = json!({"type": "end", "result": result, "scores": [4, 0]});
    feed.apply(&end.to_string()).unwrap();
    drain(&mut feed, &mut session);
    let s = session.as_ref().unwrap();
    assert!(s.done());
    assert_eq!(s.frame_count(), 5);
    assert!(
        s.frame(4).unwrap().status.contains("more coins"),
        "{}",
        s.frame(4).unwrap().status
    );
}

/// A simultaneous turn of three seats, as the hub sends it to the person on seat 2: its
/// position names the movers and whose choices these are; the person's bid is checked
/// against their own moves; the turn comes back with the others' bids masked (`?`), and the
/// session plays it from the positions.
#[test]
fn a_person_on_seat_two_plays_a_simultaneous_turn_from_the_positions() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    arbiter_engine::module::install_host(&HOST);
    let players = [0, 1, 2].map(|i| {
        let seat = Seat::from_index(i).unwrap();
        Player {
            name: format!("p{i}"),
            seat,
            command: None,
        }
    });
    // A config of its own: the tests share the host's positions, and run at once.
    let three = ModuleConfig {
        config: r#"{"players": 3}"#.into(),
        ..config()
    };
    let replay = Replay::new(GameConfig::Module(three), players);
    let together = |ply: i64| {
        json!({
            "to_move": null, "movers": [0, 1, 2], "chooser": 2, "scores": [ply, 0, 0],
            "outcome": null, "view": {"ply": ply}, "legal": ["1", "2"],
        })
    };
    let mut feed = Feed::default();
    let start = json!({"type": "start", "replay": replay, "seat": 2, "position": together(0)});
    feed.apply(&start.to_string()).unwrap();
    assert_eq!(feed.seat, Some(2), "a seat past the second is the page's");
    let mut session = None;
    drain(&mut feed, &mut session);
    let s = session.as_ref().unwrap();
    assert_eq!(check_move(s, Some(2), "2").unwrap(), "2");
    assert!(
        check_move(s, Some(2), "3").is_err(),
        "not one of seat 2's moves"
    );
    assert!(check_move(s, None, "2").is_err());
    let mut record = MoveRecord::new(Seat::FIRST, "?".into());
    record.with = vec![
        MoveRecord::new(Seat::from_index(1).unwrap(), "?".into()),
        MoveRecord::new(Seat::from_index(2).unwrap(), "2".into()),
    ];
    let content = json!({"type": "move", "move": record, "position": together(1)});
    feed.apply(&content.to_string()).unwrap();
    drain(&mut feed, &mut session);
    let s = session.as_ref().unwrap();
    assert_eq!(s.checked(), 2, "the turn was played from the positions");
    assert_eq!(s.position(1).unwrap().scores(), vec![1, 0, 0]);
}
