use super::*;
use arbiter_game::abi::Session;
use arbiter_game::{check_clicks, joint_moves, perft};
use serde_json::{json, Value};

fn game(config: Value, seed: u64) -> Goofspiel {
    Goofspiel::new(&config, seed).unwrap()
}

/// Plays one round: a bid per seat, seat 0 first.
fn bid(g: &mut Goofspiel, bids: &[u8]) {
    let moves: Vec<(Seat, u8)> = bids.iter().copied().enumerate().collect();
    g.play_together(&moves)
        .unwrap_or_else(|e| panic!("{bids:?}: {e:?}"));
}

/// Plays `g` to its end with bids drawn from `seed`.
fn play_out(g: &mut Goofspiel, seed: u64) {
    let mut rng = SplitMix(seed);
    while !g.turn().is_over() {
        let joint: Vec<(Seat, u8)> = g
            .turn()
            .movers()
            .iter()
            .map(|s| {
                let hand = g.hand(s);
                (s, hand[rng.below(hand.len())])
            })
            .collect();
        g.play_together(&joint).unwrap();
    }
}

#[test]
fn the_start_tells_the_hand_the_prize_and_the_pool() {
    let g = game(json!({"points_order": "descending", "num_cards": 5}), 0);
    assert_eq!(g.turn(), Turn::Together(SeatSet::first(2)));
    assert_eq!(
        g.tell(1),
        "GOOFSPIEL cards 5 rounds 5 seats 2 order descending bids open\nSEAT 1\n\
         ROUND 1 PRIZE 5\nHAND 1 2 3 4 5\nPOINTS 0 0\nLEFT 1 2 3 4"
    );
    assert_eq!(arbiter_game::legal(&g, 0), [1, 2, 3, 4, 5]);
    for m in 1..=5 {
        assert_eq!(g.parse_move(&g.format_move(&m)), Ok(m));
    }
    assert_eq!(g.parse_move(" 3\n"), Ok(3));
    for bad in ["", "0", "6", "-1", "+3", "3 4", "x", "255", "1000"] {
        let e = g.parse_move(bad).unwrap_err();
        assert!(e.contains("a card from 1 to 5"), "{bad:?}: {e}");
    }
    let g = game(json!({"players": 4}), 0);
    assert_eq!(g.seats(), 4);
    assert_eq!(g.turn().movers().len(), 4);
    assert_eq!(g.deck().len(), 13);
}

#[test]
fn the_single_highest_bid_takes_the_prize_and_a_tie_for_highest_discards_it() {
    let mut g = game(json!({"players": 3, "points_order": "descending"}), 0);
    bid(&mut g, &[13, 12, 1]);
    assert_eq!(g.scores(), [13, 0, 0]);
    assert_eq!(g.history()[0].winner, Some(0));
    // 11 and 11 tie for highest: the prize (12) is discarded though seat 0 bid alone.
    bid(&mut g, &[2, 11, 11]);
    assert_eq!(g.scores(), [13, 0, 0]);
    assert_eq!(g.history()[1].winner, None);
    // A lower unique bid takes nothing either; the bids are spent.
    bid(&mut g, &[3, 10, 12]);
    assert_eq!(g.scores(), [13, 0, 11]);
    assert_eq!(g.hand(2).len(), 10);
    assert!(!g.hand(2).contains(&12) && !g.hand(1).contains(&11));
    assert_eq!(highest(&[Some(4), None, Some(4)]), None);
    assert_eq!(highest(&[Some(4), None, Some(2)]), Some(0));
    assert_eq!(highest(&[None, None]), None);
}

#[test]
fn bad_bids_are_refused_naming_the_seat_and_change_nothing() {
    let mut g = game(json!({"players": 3, "num_cards": 5}), 9);
    bid(&mut g, &[5, 4, 3]);
    let before = (g.history().to_vec(), g.hands.clone(), g.scores());
    type Case<'a> = (&'a [(Seat, u8)], Seat, &'a str);
    let cases: [Case; 6] = [
        (&[(0, 5), (1, 1), (2, 1)], 0, "seat 0 has no card 5 left"),
        (&[(0, 1), (1, 2)], 2, "seat 2's bid is missing"),
        (&[(0, 1), (0, 2), (1, 1), (2, 1)], 0, "seat 0 bids twice"),
        (
            &[(0, 1), (1, 1), (2, 1), (3, 1)],
            3,
            "seat 3 does not bid in this round",
        ),
        (
            &[(0, 9), (1, 1), (2, 1)],
            0,
            "there is no card 9: the cards are 1 to 5",
        ),
        (
            &[(0, 0), (1, 1), (2, 1)],
            0,
            "there is no card 0: the cards are 1 to 5",
        ),
    ];
    for (moves, seat, why) in cases {
        assert_eq!(g.play_together(moves), Err((seat, why.to_string())));
        assert_eq!((g.history().to_vec(), g.hands.clone(), g.scores()), before);
    }
    assert!(g.play(&1).unwrap_err().contains("simultaneous"));
}

#[test]
fn the_prize_order_comes_from_the_seed_or_the_config() {
    // The documented algorithm (docs/games/goofspiel.md): Fisher-Yates over 1..=13 with
    // SplitMix64 from the seed.
    let g = game(json!({}), 0);
    assert_eq!(g.deck(), [9, 8, 13, 4, 7, 5, 2, 3, 11, 10, 1, 6, 12]);
    let mut order: Vec<u8> = (1..=13).collect();
    let mut rng = SplitMix(0);
    for i in (1..13usize).rev() {
        let j = ((u128::from(rng.next_u64()) * (i as u128 + 1)) >> 64) as usize;
        order.swap(i, j);
    }
    assert_eq!(g.deck(), order);
    assert_eq!(
        game(json!({}), 0).deck(),
        g.deck(),
        "the same seed, the same deck"
    );
    assert_ne!(game(json!({}), 1).deck(), g.deck());
    let up = game(json!({"points_order": "ascending", "num_cards": 4}), 5);
    assert_eq!(up.deck(), [1, 2, 3, 4]);
    let down = game(json!({"points_order": "descending", "num_cards": 4}), 5);
    assert_eq!(down.deck(), [4, 3, 2, 1]);
    // The prize of each round is the deck's next card, whatever is bid.
    let mut g = game(json!({}), 3);
    let deck = g.deck().to_vec();
    for (r, &p) in deck.iter().enumerate() {
        assert_eq!(g.prize(), Some(p));
        assert!(g.tell(0).contains(&format!("ROUND {} PRIZE {p}\n", r + 1)));
        let c = g.hand(0)[0];
        bid(&mut g, &[c, c]);
    }
    assert_eq!(g.prize(), None);
}

#[test]
fn a_config_answers_its_own_kind_hidden_only_with_imp_info_chance_only_shuffled() {
    let kind = |config: Value| game(config, 0).kind();
    let plain = kind(json!({}));
    assert!(
        !plain.hidden && plain.chance && plain.simultaneous,
        "{plain:?}"
    );
    assert!(kind(json!({"imp_info": true})).hidden);
    let fixed = kind(json!({"points_order": "descending"}));
    assert!(
        !fixed.hidden && !fixed.chance && fixed.simultaneous,
        "{fixed:?}"
    );
    // Without imp_info every viewer is drawn the same view (a seat's targets too).
    let g = game(json!({"players": 3}), 0);
    for viewer in [Viewer::Public, Viewer::Seat(0), Viewer::Seat(2)] {
        assert_eq!(g.view(viewer), g.view(Viewer::All), "{viewer:?}");
    }
    let g = game(json!({"players": 3, "imp_info": true}), 0);
    assert_ne!(g.view(Viewer::Seat(0)), g.view(Viewer::All));
}

#[test]
fn configs_are_read_under_openspiels_names_and_refused_saying_what() {
    let g = game(json!({"num_cards": 6, "num_turns": 3, "imp_info": true}), 0);
    assert_eq!(g.settings().rounds, 3);
    assert!(g.settings().imp_info);
    assert_eq!(game(json!({"num_turns": -1}), 0).settings().rounds, 13);
    let refused = [
        (
            json!({"num_cards": 0}),
            "num_cards must be a whole number from 1 to 26",
        ),
        (
            json!({"num_cards": 27}),
            "num_cards must be a whole number from 1 to 26",
        ),
        (
            json!({"num_cards": 4, "num_turns": 5}),
            "num_turns must be a whole number from 1 to 4",
        ),
        (
            json!({"points_order": "up"}),
            "points_order must be \"random\", \"descending\"",
        ),
        (json!({"imp_info": 1}), "imp_info must be true or false"),
        (
            json!({"returns_type": "x"}),
            "returns_type must be \"win_loss\"",
        ),
        (json!({"players": 5}), "players must be 2, 3 or 4"),
    ];
    for (config, why) in refused {
        let e = Goofspiel::new(&config, 0).unwrap_err();
        assert!(e.starts_with(why), "{config}: {e}");
    }
    let mut s = Session::<Goofspiel>::new();
    let typo = s.call(br#"{"op":"new","config":{"numcards":5}}"#);
    let typo = String::from_utf8(typo).unwrap();
    assert!(
        typo.contains("\\\"numcards\\\"") && typo.contains("num_cards"),
        "{typo}"
    );
}

#[test]
fn the_last_card_is_forced_and_perft_multiplies_the_hands() {
    let mut g = game(json!({"num_cards": 3, "points_order": "ascending"}), 0);
    assert_eq!(g.forced_move(0), None);
    bid(&mut g, &[1, 2]);
    bid(&mut g, &[2, 1]);
    assert_eq!((g.forced_move(0), g.forced_move(1)), (Some(3), Some(3)));
    assert_eq!(arbiter_game::legal(&g, 1), [3]);
    // Every bid is legal whatever the prizes: the tree is the product of the hands.
    for (players, cards, deepest) in [(2, 13, 2), (3, 6, 2), (4, 4, 3)] {
        let g = game(json!({"players": players, "num_cards": cards}), 7);
        let mut expected = 1u64;
        for depth in 1..=deepest {
            expected *= (cards as u64 - depth as u64 + 1).pow(players);
            assert_eq!(perft(&g, depth), expected, "{players} seats, {cards} cards");
        }
    }
    // 4 cards, 2 seats, to the end: 16 * 9 * 4 * 1, and nothing below the end.
    let g = game(json!({"num_cards": 4}), 1);
    assert_eq!(perft(&g, 4), 576);
    assert_eq!(perft(&g, 5), 0);
    let g = game(json!({"num_cards": 5, "num_turns": 2}), 1);
    assert_eq!((perft(&g, 2), perft(&g, 3)), (25 * 16, 0));
}

#[test]
fn places_follow_the_returns_type() {
    // Seat 0 takes 4 + 3, seat 1 takes 2, seat 2 takes 1.
    let rounds: [&[u8]; 4] = [&[4, 1, 2], &[3, 2, 1], &[1, 4, 3], &[2, 3, 4]];
    let play = |returns: &str| {
        let config = json!({"players": 3, "num_cards": 4, "points_order": "descending",
            "returns_type": returns});
        let mut g = game(config, 0);
        for r in rounds {
            bid(&mut g, r);
        }
        g.outcome().unwrap()
    };
    let o = play("win_loss");
    assert_eq!(o.scores, [7, 2, 1]);
    assert_eq!(
        o.places,
        [1, 2, 2],
        "win_loss: the winners, then everyone else"
    );
    assert_eq!(o.reason, "seat 0 took the most points: 7");
    for returns in ["point_difference", "total_points"] {
        assert_eq!(play(returns).places, [1, 2, 3], "{returns}");
    }
    let mut g = game(json!({"num_cards": 2, "points_order": "ascending"}), 0);
    bid(&mut g, &[1, 1]);
    bid(&mut g, &[2, 2]);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.places, o.reason.as_str()),
        (vec![1, 1], "every seat took 0 points")
    );
    let mut g = game(
        json!({"players": 3, "num_cards": 2, "points_order": "ascending"}),
        0,
    );
    bid(&mut g, &[2, 1, 1]);
    bid(&mut g, &[1, 2, 2]);
    assert_eq!(g.outcome().unwrap().places, [1, 2, 2]);
    let mut g = game(
        json!({"players": 3, "num_cards": 4, "points_order": "descending"}),
        0,
    );
    for r in [[4, 1, 2], [1, 4, 3], [3, 2, 4], [2, 3, 1]] {
        bid(&mut g, &r);
    }
    let o = g.outcome().unwrap();
    assert_eq!(o.scores, [4, 4, 2]);
    assert_eq!(o.places, [1, 1, 3]);
    assert_eq!(o.reason, "seat 0 and seat 1 tied for the most points: 4");
}

#[test]
fn a_retired_seat_bids_no_more_and_places_after_the_others() {
    let mut g = game(
        json!({"players": 4, "num_cards": 5, "points_order": "descending"}),
        0,
    );
    bid(&mut g, &[5, 4, 3, 2]);
    assert!(g.retire(0));
    assert_eq!(g.turn(), Turn::Together([1, 2, 3].into_iter().collect()));
    assert!(arbiter_game::legal(&g, 0).is_empty());
    assert_eq!(
        g.play_together(&[(0, 1), (1, 4), (2, 3), (3, 2)]),
        Err((0, "seat 0 does not bid in this round".into()))
    );
    g.play_together(&[(1, 5), (2, 4), (3, 1)]).unwrap();
    assert_eq!(g.scores(), [5, 4, 0, 0]);
    assert!(g.tell(1).contains("\nPAST 4 1 x 5 4 1\n"), "{}", g.tell(1));
    assert!(g.tell(1).ends_with("\nOUT 0"));
    assert!(g.retire(3));
    assert!(g.retire(3), "a seat already out: nothing more to do");
    g.play_together(&[(1, 1), (2, 5)]).unwrap();
    g.play_together(&[(1, 2), (2, 1)]).unwrap();
    g.play_together(&[(1, 3), (2, 2)]).unwrap();
    let o = g.outcome().unwrap();
    // Seat 0 took more than seat 2 but was taken out first: last; seat 3 out later: third.
    assert_eq!(o.scores, [5, 7, 3, 0]);
    assert_eq!(o.places, [4, 1, 2, 3]);
    o.check(4).unwrap();
    // Down to one seat, the game is over.
    let mut g = game(json!({"players": 3}), 0);
    g.retire(1);
    g.retire(2);
    assert_eq!(g.turn(), Turn::Over);
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [1, 2, 2]);
    assert_eq!(o.reason, "every other seat was taken out: seat 0 is left");
}

/// A 3-seat imp_info game after two rounds, with seat 1's and seat 2's bids as given.
fn hidden(bids1: [u8; 2], bids2: [u8; 2]) -> Goofspiel {
    let config = json!({"players": 3, "num_cards": 6, "imp_info": true});
    let mut g = game(config, 4);
    bid(&mut g, &[6, bids1[0], bids2[0]]);
    bid(&mut g, &[1, bids1[1], bids2[1]]);
    g
}

#[test]
fn with_imp_info_a_seat_learns_who_took_each_prize_and_nothing_of_the_bids() {
    // Seat 0 takes the first prize (6 against less), seat 1 the second (5 against 1 and 3):
    // seat 2's bids differ between the two games, and seat 0 cannot tell them apart.
    let a = hidden([2, 5], [3, 4]);
    let b = hidden([4, 5], [5, 3]);
    assert_eq!(a.history()[1].winner, Some(1));
    assert_eq!(a.tell(0), b.tell(0));
    assert_eq!(a.view(Viewer::Seat(0)), b.view(Viewer::Seat(0)));
    assert_eq!(a.view(Viewer::Public), b.view(Viewer::Public));
    assert_ne!(a.view(Viewer::All), b.view(Viewer::All));
    assert_ne!(a.tell(1), b.tell(1), "seat 1 knows its own bids");
    let told = a.tell(0);
    assert!(
        told.contains("\nPAST ") && told.contains(" 0 6 ? ?\n"),
        "{told}"
    );
    assert!(told.contains("\nHAND 2 3 4 5\n"), "{told}");
    let view = a.view(Viewer::Seat(0));
    assert!(
        view.pieces
            .iter()
            .all(|p| p.seat != Some(1) && p.seat != Some(2) || p.at[1] == 5),
        "only the won row shows the others' colours"
    );
    assert!(view
        .text
        .iter()
        .any(|t| t == "seat 2's hand is hidden: 4 cards"));
    // Seat 0 is told its own bid, never another's; a spectator nobody's.
    assert_eq!(a.reveal(1, &3, Viewer::Seat(0)), None);
    assert_eq!(a.reveal(1, &3, Viewer::Public), None);
    assert_eq!(a.reveal(1, &3, Viewer::Seat(1)), Some("3".into()));
    assert_eq!(a.reveal(1, &3, Viewer::All), Some("3".into()));
    // Without imp_info every bid is told once the round is played.
    let open = game(json!({"players": 3}), 4);
    assert_eq!(open.reveal(1, &3, Viewer::Seat(0)), Some("3".into()));
    assert_eq!(open.reveal(1, &3, Viewer::Public), Some("3".into()));
}

#[test]
fn what_a_seat_is_told_of_a_turn_does_not_depend_on_what_the_others_choose_in_it() {
    for imp_info in [false, true] {
        let config = json!({"players": 3, "num_cards": 4, "imp_info": imp_info});
        let mut start = game(config, 2);
        bid(&mut start, &[2, 3, 1]);
        for seat in 0..3 {
            // At the start of the turn seat is told one thing, whatever the others will bid.
            let before = (start.tell(seat), start.view(Viewer::Seat(seat)));
            let mut after: Vec<(u8, Option<Seat>, String, arbiter_game::View)> = Vec::new();
            for joint in joint_moves(&start) {
                let mine = joint[seat].1;
                let mut g = start.clone();
                g.play_together(&joint).unwrap();
                for &(by, mv) in &joint {
                    let told = start.reveal(by, &mv, Viewer::Seat(seat));
                    let expected = (by == seat || !imp_info).then(|| mv.to_string());
                    assert_eq!(told, expected, "imp_info {imp_info}: {by} to {seat}");
                }
                assert_eq!((start.tell(seat), start.view(Viewer::Seat(seat))), before);
                let winner = g.history().last().unwrap().winner;
                after.push((mine, winner, g.tell(seat), g.view(Viewer::Seat(seat))));
            }
            // With imp_info, what seat learns after the turn is its own bid and the taker only.
            for x in &after {
                for y in &after {
                    let same = (x.0, x.1) == (y.0, y.1);
                    let told_same = x.2 == y.2 && x.3 == y.3;
                    if imp_info {
                        assert_eq!(same, told_same, "seat {seat}: {} / {}", x.2, y.2);
                    }
                }
            }
        }
    }
}

#[test]
fn a_sample_keeps_what_a_seat_knows_and_redraws_the_others_bids() {
    for seed in 0..30 {
        let config = json!({"players": 2 + seed as usize % 3, "imp_info": true});
        let mut g = game(config, seed);
        let mut rng = SplitMix(seed);
        let rounds = 3 + rng.below(9);
        for _ in 0..rounds {
            let joint: Vec<(Seat, u8)> = g
                .turn()
                .movers()
                .iter()
                .map(|s| (s, g.hand(s)[rng.below(g.hand(s).len())]))
                .collect();
            g.play_together(&joint).unwrap();
        }
        let me = seed as usize % g.seats();
        let mut differ = false;
        for k in 0..8 {
            let s = g.sample(me, seed * 100 + k);
            assert_eq!(s.tell(me), g.tell(me), "seed {seed}");
            assert_eq!(s.view(Viewer::Seat(me)), g.view(Viewer::Seat(me)));
            assert_eq!(s.prize(), g.prize());
            for (r, round) in s.history().iter().enumerate() {
                assert_eq!(highest(&round.bids), round.winner, "seed {seed} round {r}");
                assert_eq!(round.bids[me], g.history()[r].bids[me]);
            }
            for other in (0..g.seats()).filter(|&o| o != me) {
                let spent: Vec<u8> = s.history().iter().filter_map(|r| r.bids[other]).collect();
                let mut all = spent.clone();
                all.extend(s.hand(other));
                all.sort_unstable();
                assert_eq!(all, (1..=13).collect::<Vec<u8>>(), "each card once");
                differ |= s.hand(other) != g.hand(other);
            }
            assert!(
                knowledge::draw_for_test(&g, me, seed + k).is_some(),
                "no fallback"
            );
        }
        // After a few rounds another seat's hand is rarely pinned down.
        if rounds >= 5 {
            assert!(differ, "seed {seed}: eight samples redrew nothing");
        }
        // The future prizes are drawn again too (the current one stays).
        let next = g.round() + 1;
        let decks: Vec<Vec<u8>> = (0..8).map(|k| g.sample(me, k).deck().to_vec()).collect();
        assert!(decks.iter().all(|d| d[..next] == g.deck()[..next]));
        if g.deck().len() - next >= 3 {
            assert!(decks.iter().any(|d| d[next..] != g.deck()[next..]));
        }
    }
    // Without imp_info nothing is hidden but the order of the prizes to come.
    let mut g = game(json!({}), 3);
    bid(&mut g, &[5, 7]);
    let s = g.sample(0, 11);
    assert_eq!(s.history(), g.history());
    assert_eq!(s.hand(1), g.hand(1));
    assert_eq!(s.prize(), g.prize());
}

#[test]
fn random_games_end_in_a_ranking_and_replay_the_same() {
    for seed in 0..60 {
        let players = 2 + seed as usize % 3;
        let config = json!({"players": players, "num_cards": 1 + seed as usize % 13,
            "imp_info": seed % 2 == 0});
        let mut g = game(config.clone(), seed);
        let mut h = game(config, seed);
        check_clicks(&g).unwrap();
        for viewer in [Viewer::All, Viewer::Public, Viewer::Seat(0)] {
            g.view(viewer).check(players).unwrap();
        }
        play_out(&mut g, seed);
        play_out(&mut h, seed);
        let o = g.outcome().unwrap();
        o.check(players).unwrap();
        assert_eq!(Some(o.clone()), h.outcome(), "deterministic");
        let total: i64 = g
            .history()
            .iter()
            .filter(|r| r.winner.is_some())
            .map(|r| i64::from(r.prize))
            .sum();
        assert_eq!(o.scores.iter().sum::<i64>(), total);
        for viewer in [Viewer::All, Viewer::Public, Viewer::Seat(players - 1)] {
            g.view(viewer).check(players).unwrap();
        }
        assert!(g.tell(0).contains("\nOVER\n"));
    }
}

#[test]
fn the_module_session_plays_a_turn_whatever_order_the_bids_come_in() {
    let mut s = Session::<Goofspiel>::new();
    let ask = |s: &mut Session<Goofspiel>, v: Value| -> Value {
        serde_json::from_slice(&s.call(&serde_json::to_vec(&v).unwrap())).unwrap()
    };
    let info = ask(&mut s, json!({"op": "info"}))["ok"].clone();
    assert_eq!(info["seats"], json!([2, 3, 4]));
    assert_eq!(info["kind"]["simultaneous"], true);
    assert_eq!(info["kind"]["hidden"], true, "what some config has");
    let open = ask(&mut s, json!({"op": "new", "config": {}, "seed": 5}));
    assert_eq!(
        open["ok"]["kind"],
        json!({"chance": true, "hidden": false, "simultaneous": true}),
        "without imp_info this game hides nothing"
    );
    let new = json!({"op": "new", "config": {"players": 3, "imp_info": true}, "seed": 5});
    let a = ask(&mut s, new.clone())["ok"]["state"].clone();
    let b = ask(&mut s, new)["ok"]["state"].clone();
    let fwd = json!({"op": "play", "state": a, "moves": [[0, "13"], [1, "2"], [2, "7"]]});
    let back = json!({"op": "play", "state": b, "moves": [[2, "7"], [1, "2"], [0, "13"]]});
    assert_eq!(ask(&mut s, fwd)["ok"], Value::Null);
    assert_eq!(ask(&mut s, back)["ok"], Value::Null);
    for seat in 0..3 {
        let tell = |s: &mut Session<Goofspiel>, st: &Value| {
            ask(s, json!({"op": "tell", "state": st, "seat": seat}))
        };
        assert_eq!(tell(&mut s, &a), tell(&mut s, &b));
    }
    let told = ask(
        &mut s,
        json!({"op": "reveal", "state": a, "moves": [[0, "1"], [1, "3"], [2, "4"]], "to": 1}),
    );
    assert_eq!(told["ok"], json!([null, "3", null]));
    let clicks = ask(&mut s, json!({"op": "clicks", "state": a, "seat": 1}));
    assert_eq!(clicks["ok"][0], json!({"move": "1", "cells": [[0, 4]]}));
    let out = ask(&mut s, json!({"op": "playout", "state": a, "seed": 1}));
    assert_eq!(out["ok"]["plies"], 12, "{out}");
}

#[test]
fn hidden_bids_are_redrawn_consistently_in_every_round_of_random_games() {
    // The search for a consistent history never falls back to an inconsistent one here: 13
    // and 26 cards, 2 to 4 seats, every seat's view after every round.
    for seed in 0..24u64 {
        let players = 2 + seed as usize % 3;
        let cards = if seed % 2 == 0 { 13 } else { 26 };
        let mut g = game(
            json!({"players": players, "imp_info": true, "num_cards": cards}),
            seed,
        );
        let mut rng = SplitMix(seed);
        while g.round() + 1 < cards {
            let joint: Vec<(Seat, u8)> = g
                .turn()
                .movers()
                .iter()
                .map(|s| (s, g.hand(s)[rng.below(g.hand(s).len())]))
                .collect();
            g.play_together(&joint).unwrap();
            for me in 0..players {
                let bids = knowledge::draw_for_test(&g, me, seed).expect("a consistent history");
                for (round, drawn) in g.history().iter().zip(&bids) {
                    let mut all = drawn.clone();
                    all[me] = round.bids[me];
                    assert_eq!(highest(&all), round.winner);
                }
            }
        }
    }
}
