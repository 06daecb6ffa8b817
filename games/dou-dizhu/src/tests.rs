use super::*;
use arbiter_game::{legal, perft};
use cards::{rank_of_char, RANKS};
use deal::SplitMix;
use serde_json::json;

fn standard(seed: u64) -> DouDizhu {
    DouDizhu::new(&json!({}), seed).unwrap()
}

fn cards_of(text: &str) -> Cards {
    Cards::parse(text).unwrap()
}

/// A deal with the given hands (`None`: filled from the rest of the pack, lowest ranks first)
/// and kitty (the fourth entry); the face-up card is `faceup` (a rank) in `holder`'s hand.
fn dealt(fixed: [Option<&str>; 4], faceup: char, holder: Seat, rules: Rules) -> DouDizhu {
    let mut rest = Cards::pack();
    let mut parts = [Cards::NONE; 4];
    for (part, text) in parts.iter_mut().zip(fixed) {
        if let Some(t) = text {
            *part = cards_of(t);
            rest.remove(part);
        }
    }
    let mut pool = (0..RANKS).flat_map(|r| std::iter::repeat_n(r, usize::from(rest.count(r))));
    for (i, part) in parts.iter_mut().enumerate() {
        let want = if i == 3 { 3 } else { 17 };
        if fixed[i].is_none() {
            while part.total() < want {
                part.0[pool.next().unwrap()] += 1;
            }
        }
    }
    let hands = [parts[0], parts[1], parts[2]];
    let rank = rank_of_char(faceup as u8).unwrap();
    DouDizhu::with_hands(rules, hands, parts[3], (rank, holder)).unwrap()
}

fn play(g: &mut DouDizhu, text: &str) -> Result<(), String> {
    let mv = g.parse_move(text)?;
    g.play(&mv)
}

fn play_all(g: &mut DouDizhu, texts: &[&str]) {
    for t in texts {
        play(g, t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

fn texts(g: &DouDizhu) -> Vec<String> {
    let seat = g.turn().seat().unwrap_or(0);
    legal(g, seat).iter().map(|m| g.format_move(m)).collect()
}

fn line<'a>(told: &'a str, key: &str) -> &'a str {
    told.lines()
        .find_map(|l| l.strip_prefix(key).map(str::trim))
        .unwrap_or_else(|| panic!("no {key} in {told}"))
}

#[test]
fn the_deal_the_face_up_card_and_the_first_bid() {
    let g = standard(5);
    let d = Deal::from_seed(5);
    assert_eq!(g.turn(), Turn::Seat(d.first_bidder()));
    assert_eq!(texts(&g), ["pass", "bid1", "bid2", "bid3"]);
    for s in 0..SEATS {
        assert_eq!(g.hand(s), &d.hand(s));
        let told = g.tell(s);
        assert_eq!(line(&told, "HAND"), d.hand(s).text());
        assert_eq!(line(&told, "COUNTS"), "17 17 17");
        assert_eq!(
            line(&told, "KITTY"),
            "-",
            "the three cards are hidden while bidding"
        );
        let faceup = char::from(cards::RANK_CHARS[d.faceup_rank()]);
        assert_eq!(
            line(&told, "FACEUP"),
            format!("{faceup} {}", d.first_bidder())
        );
        assert!(told.lines().all(|l| !l.trim().is_empty()));
    }
}

#[test]
fn bidding_as_openspiel_bids() {
    // A bid of 3 takes the seat at once; the landlord gets the kitty and leads.
    let mut g = standard(1);
    let first = g.turn().seat().unwrap();
    play_all(&mut g, &["bid3"]);
    assert_eq!(g.landlord(), Some(first));
    assert_eq!(g.hand(first).total(), 20);
    assert_eq!(g.turn(), Turn::Seat(first));
    assert!(
        !texts(&g).contains(&"pass".to_string()),
        "the leader may not pass"
    );
    assert_eq!(
        line(&g.tell((first + 1) % 3), "LANDLORD"),
        format!("{first} 3")
    );
    assert_eq!(
        line(&g.tell((first + 1) % 3), "KITTY"),
        Deal::from_seed(1).kitty().text()
    );
    // Two passes after a bid end it; a seat that passed may bid again later.
    let mut g = standard(1);
    play_all(&mut g, &["pass", "bid1", "pass", "bid2"]);
    assert_eq!(g.landlord(), None);
    let (second, third) = ((first + 1) % 3, (first + 2) % 3);
    let bids = format!("{first}:pass {second}:bid1 {third}:pass {first}:bid2");
    assert_eq!(
        line(&g.tell(0), "BIDS"),
        bids,
        "the first bidder passed, then bid 2"
    );
    assert_eq!(g.turn(), Turn::Seat(second));
    assert_eq!(texts(&g), ["pass", "bid3"], "after bid2");
    play_all(&mut g, &["pass"]);
    assert_eq!(texts(&g), ["pass", "bid3"]);
    play_all(&mut g, &["pass"]);
    assert_eq!(g.landlord(), Some(first));
    assert_eq!(g.stake(), 2);
}

#[test]
fn three_passes_void_the_deal() {
    let mut g = standard(2);
    play_all(&mut g, &["pass", "pass", "pass"]);
    assert!(g.turn().is_over());
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [1, 1, 1]);
    assert_eq!(o.scores, [0, 0, 0]);
    assert!(o.reason.contains("void"), "{}", o.reason);
    assert_eq!(play(&mut g, "bid1"), Err("the game is over".into()));
}

#[test]
fn refusals_say_why() {
    let mut g = standard(3);
    play_all(&mut g, &["bid2"]);
    let e = play(&mut g, "bid1").unwrap_err();
    assert_eq!(e, "bid1 does not raise the bid of 2: bid3 or more, or pass");
    let e = play(&mut g, "34567").unwrap_err();
    assert!(e.contains("bidding is on"), "{e}");
    assert!(play(&mut g, "bid4")
        .unwrap_err()
        .contains("bid1, bid2 or bid3"));
    play_all(&mut g, &["pass", "pass"]);
    let l = g.landlord().unwrap();
    assert_eq!(
        play(&mut g, "pass").unwrap_err(),
        format!("seat {l} leads this trick and may not pass")
    );
    assert!(play(&mut g, "bid3")
        .unwrap_err()
        .contains("bidding is over"));
    let missing = (0..RANKS).find(|&r| g.hand(l).count(r) == 0).unwrap();
    let text = char::from(cards::RANK_CHARS[missing]).to_string();
    let e = play(&mut g, &text).unwrap_err();
    assert_eq!(e, format!("seat {l} does not hold all of {text}"));
    for (bad, words) in [
        ("3x", "is not a move"),
        ("33333", "at most four"),
        ("3456", "no combination"),
        ("333444-56", "without a dash"),
        (&"3".repeat(40), "longer than a move"),
    ] {
        let e = g.parse_move(bad).unwrap_err();
        assert!(e.contains(words), "{bad}: {e}");
    }
}

#[test]
fn a_play_must_beat_the_table_and_two_passes_give_the_lead_back() {
    let mut g = dealt(
        [
            Some("3345678TTJQKA22BR"),
            Some("44556699JJQQKKAA2"),
            None,
            None,
        ],
        '3',
        0,
        Rules::Standard,
    );
    play_all(&mut g, &["bid3", "TT"]);
    let e = play(&mut g, "55").unwrap_err();
    assert!(
        e.starts_with("55 does not beat TT (a pair) from seat 0"),
        "{e}"
    );
    assert!(e.contains("bomb or the rocket"), "{e}");
    assert!(play(&mut g, "9").unwrap_err().contains("does not beat"));
    play_all(&mut g, &["JJ", "pass", "pass"]);
    assert_eq!(
        g.turn(),
        Turn::Seat(1),
        "seats 2 and 0 passed: seat 1 leads"
    );
    assert_eq!(line(&g.tell(2), "TABLE"), "-");
    assert_eq!(line(&g.tell(2), "PLAYS"), "0:TT 1:JJ 2:pass 0:pass");
}

/// Seat 0 bids 3, plays out 456789TJQKA, 222, the bomb 3333 and the rocket while the
/// peasants can only pass: a spring.
#[test]
fn a_spring_with_a_bomb_and_the_rocket() {
    let mut g = dealt(
        [Some("3333456789TJQKA22"), None, None, Some("2BR")],
        '3',
        0,
        Rules::Standard,
    );
    play_all(&mut g, &["bid3", "456789TJQKA"]);
    for _ in 0..2 {
        let s = g.turn().seat().unwrap();
        assert_eq!(texts(&g), ["pass"], "no peasant can beat it");
        assert_eq!(
            g.forced_move(s),
            None,
            "but it is asked: a quick pass would tell"
        );
        play_all(&mut g, &["pass"]);
    }
    play_all(
        &mut g,
        &["222", "pass", "pass", "3333", "pass", "pass", "BR"],
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [1, 2, 2]);
    // 3, doubled for the bomb, the rocket and the spring.
    assert_eq!(o.scores, [48, -24, -24]);
    assert!(
        o.reason.contains("spring") && o.reason.contains("2 bomb"),
        "{}",
        o.reason
    );
}

/// A peasant plays out after the landlord's first lead: a spring against the landlord.
#[test]
fn the_peasants_win_and_the_landlord_played_once() {
    let mut g = dealt(
        [None, Some("3456789TJQKA2222R"), None, None],
        '3',
        0,
        Rules::Standard,
    );
    play_all(&mut g, &["bid1", "pass", "pass", "3", "R", "pass", "pass"]);
    play_all(&mut g, &["3456789TJQKA", "pass", "pass", "2222"]);
    let o = g.outcome().unwrap();
    assert_eq!(
        o.places,
        [3, 1, 1],
        "the peasants first, the landlord after both"
    );
    assert_eq!(
        o.scores,
        [-8, 4, 4],
        "1, doubled for the bomb and the spring"
    );
}

/// A random legal move of the seat to move.
fn random_move(g: &DouDizhu, rng: &mut SplitMix) -> Move {
    let seat = g.turn().seat().unwrap();
    let moves = legal(g, seat);
    moves[rng.below(moves.len())]
}

#[test]
fn random_games_end_with_a_ranking_in_both_rule_sets() {
    for rules in ["standard", "openspiel"] {
        for seed in 0..150 {
            let mut g = DouDizhu::new(&json!({ "rules": rules }), seed).unwrap();
            let mut rng = SplitMix(seed);
            let mut plies = 0;
            while g.turn().seat().is_some() {
                let mv = random_move(&g, &mut rng);
                let text = g.format_move(&mv);
                assert!(text.len() <= notation::MAX_MOVE, "{text}");
                assert_eq!(g.parse_move(&text), Ok(mv), "{text}");
                g.play(&mv).unwrap();
                plies += 1;
                assert!(plies < 300, "seed {seed} never ends");
            }
            let o = g.outcome().unwrap();
            assert!(o.check(3).is_ok(), "{o:?}");
            assert_eq!(o.scores.iter().sum::<i64>(), 0);
            for s in 0..SEATS {
                let first = o.places[s] == 1;
                assert!(o.scores[s] == 0 || first == (o.scores[s] > 0), "{o:?}");
            }
        }
    }
}

#[test]
fn the_same_seed_and_moves_give_the_same_game() {
    let run = |seed| {
        let mut g = standard(seed);
        let mut rng = SplitMix(9);
        while g.turn().seat().is_some() {
            let mv = random_move(&g, &mut rng);
            g.play(&mv).unwrap();
        }
        (g.tell(0), g.outcome())
    };
    assert_eq!(run(4), run(4));
    assert_ne!(run(4).0, run(5).0);
}

/// The game of seed `seed` and the same game with one card swapped between seats 1 and 2.
fn twin_deals(seed: u64) -> (DouDizhu, DouDizhu) {
    let d = Deal::from_seed(seed);
    let g = DouDizhu::from_deal(Rules::Standard, &d).unwrap();
    let (faceup, holder) = (d.faceup_rank(), d.first_bidder());
    let mut hands = [d.hand(0), d.hand(1), d.hand(2)];
    let movable = |h: &Cards, s: Seat, r: usize| {
        h.count(r) > 0 && (s != holder || r != faceup || h.count(r) > 1)
    };
    let (a, b) = (0..RANKS)
        .flat_map(|a| (0..RANKS).map(move |b| (a, b)))
        .find(|&(a, b)| a != b && movable(&hands[1], 1, a) && movable(&hands[2], 2, b))
        .unwrap();
    hands[1].0[a] -= 1;
    hands[1].0[b] += 1;
    hands[2].0[b] -= 1;
    hands[2].0[a] += 1;
    let twin = DouDizhu::with_hands(Rules::Standard, hands, d.kitty(), (faceup, holder)).unwrap();
    (g, twin)
}

#[test]
fn seat_zero_is_told_and_shown_nothing_of_the_other_hands() {
    for seed in 0..20 {
        let (mut g, mut twin) = twin_deals(seed);
        let mut rng = SplitMix(seed);
        loop {
            assert_eq!(g.tell(0), twin.tell(0), "seed {seed}");
            assert_eq!(g.view(Viewer::Seat(0)), twin.view(Viewer::Seat(0)));
            assert_eq!(g.view(Viewer::Public), twin.view(Viewer::Public));
            assert_ne!(g.tell(1), twin.tell(1));
            assert_ne!(g.view(Viewer::All), twin.view(Viewer::All));
            // Seat 0 takes the landlord's seat and plays alone; the others pass.
            let Some(seat) = g.turn().seat() else { break };
            let mv = match (seat, g.bidding()) {
                (0, true) => Move::Bid(3),
                (0, false) => random_move(&g, &mut rng),
                _ => Move::Pass,
            };
            g.play(&mv).unwrap();
            twin.play(&mv).unwrap();
        }
        assert_eq!(g.outcome(), twin.outcome());
    }
}

#[test]
fn views_show_a_hand_only_to_its_seat() {
    let mut g = standard(8);
    play_all(&mut g, &["bid3"]);
    let landlord = g.landlord().unwrap();
    for viewer in [
        Viewer::All,
        Viewer::Public,
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
    ] {
        let v = g.view(viewer);
        assert_eq!(v.check(3), Ok(()));
        for s in 0..SEATS {
            let faces = v
                .pieces
                .iter()
                .filter(|p| p.at[1] == s as u16 && p.at[0] < 15);
            let ranks = g.hand(s).0.iter().filter(|&&n| n > 0).count();
            let expected = if viewer.sees_seat(s) { ranks } else { 0 };
            assert_eq!(faces.count(), expected, "{viewer:?} row {s}");
            let count = v.pieces.iter().find(|p| p.at == [15, s as u16]).unwrap();
            assert_eq!(
                count.label.as_deref(),
                Some(g.hand(s).total().to_string().as_str())
            );
        }
        // The kitty is shown to all once the bidding is over.
        assert_eq!(
            v.pieces.iter().filter(|p| p.at[1] == 3).count(),
            g.shown_kitty()
                .unwrap()
                .0
                .iter()
                .filter(|&&n| n > 0)
                .count()
                + 1
        );
    }
    let text = g.view(Viewer::Public).text.join("\n");
    assert!(text.contains(&format!("seat {landlord} leads")), "{text}");
    assert!(
        !text.contains("click"),
        "spectators have no cards to click: {text}"
    );
    let seat = g.view(Viewer::Seat(landlord)).text.join("\n");
    assert!(seat.contains("one click per card, then play"), "{seat}");
}

#[test]
fn samples_keep_what_a_seat_knows_and_redraw_the_rest() {
    for seed in 0..30 {
        let mut g = standard(seed);
        let mut rng = SplitMix(seed + 100);
        let stop = rng.below(40);
        for _ in 0..stop {
            if g.turn().seat().is_none() {
                break;
            }
            let mv = random_move(&g, &mut rng);
            g.play(&mv).unwrap();
        }
        for seat in 0..SEATS {
            let mut redrawn = false;
            for k in 0..8 {
                let s = g.sample(seat, k);
                assert_eq!(s.tell(seat), g.tell(seat), "seed {seed} seat {seat}");
                assert_eq!(s.view(Viewer::Seat(seat)), g.view(Viewer::Seat(seat)));
                let mut all = s.kitty;
                if s.landlord.is_some() {
                    all = Cards::NONE;
                }
                for t in 0..SEATS {
                    all.add(&s.hands[t]);
                    all.add(&s.played[t]);
                    assert_eq!(s.hands[t].total(), g.hands[t].total());
                    let mut known = sampling_known(&g, t);
                    known.remove(&g.played[t]);
                    assert!(s.hands[t].holds(&known), "seat {t} keeps its known cards");
                }
                assert_eq!(all, Cards::pack());
                redrawn |= (0..SEATS).any(|t| s.hands[t] != g.hands[t]);
            }
            let unknown: usize = (0..SEATS)
                .filter(|&t| t != seat)
                .map(|t| g.hands[t].total())
                .sum();
            assert!(
                redrawn || unknown < 2 || g.turn().is_over(),
                "seed {seed} seat {seat}"
            );
        }
    }
}

/// The face-up card for its holder and the kitty for the landlord.
fn sampling_known(g: &DouDizhu, seat: Seat) -> Cards {
    let mut c = Cards::NONE;
    if g.faceup.1 == seat {
        c.0[g.faceup.0] += 1;
    }
    if g.landlord == Some(seat) {
        c.add(&g.kitty);
    }
    c
}

#[test]
fn a_failed_seat_is_played_by_the_autopilot_and_placed_last() {
    for seed in 0..40 {
        let mut g = standard(seed);
        let mut rng = SplitMix(seed);
        let failing = (seed % 3) as usize;
        let at = rng.below(12);
        let mut plies = 0;
        while let Some(seat) = g.turn().seat() {
            if plies == at {
                assert!(g.retire(failing));
            }
            let mv = if g.retired[seat] {
                let auto = g.forced_move(seat).unwrap();
                assert_eq!(legal(&g, seat), [auto]);
                if g.bidding() || g.table.is_some() {
                    assert_eq!(auto, Move::Pass);
                } else {
                    let lowest = g.hand(seat).lowest().unwrap();
                    assert!(
                        matches!(auto, Move::Play(c) if c.cards.total() == 1 && c.head as usize == lowest)
                    );
                }
                auto
            } else {
                random_move(&g, &mut rng)
            };
            g.play(&mv).unwrap();
            plies += 1;
        }
        let o = g.outcome().unwrap();
        assert!(o.check(3).is_ok(), "{o:?}");
        if g.retired[failing] {
            assert_eq!(o.places[failing], 3, "seed {seed}: {o:?}");
            assert!(o.reason.contains("failed"), "{}", o.reason);
        }
    }
    assert!(!standard(0).clone().retire(3), "no seat 3");
    // The autopilot's moves are the only ones.
    let mut g = standard(0);
    let s = g.turn().seat().unwrap();
    assert!(g.retire(s));
    assert!(play(&mut g, "bid3").unwrap_err().contains("autopilot"));
    assert_eq!(g.forced_move(s), Some(Move::Pass));
}

#[test]
fn clicks_are_the_cards_lowest_first_then_play() {
    let mut g = dealt(
        [Some("3345678TTJQKA22BR"), None, None, None],
        '3',
        0,
        Rules::Standard,
    );
    assert_eq!(
        g.clicks(0, &Move::Bid(2)),
        Some(Clicks::Cells(vec![[3, 5]]))
    );
    assert_eq!(g.clicks(0, &Move::Pass), Some(Clicks::Cells(vec![[0, 5]])));
    play_all(&mut g, &["bid3"]);
    let mv = g.parse_move("33345").unwrap_err();
    assert!(mv.contains("no combination"));
    let mv = g.parse_move("TT").unwrap();
    assert_eq!(
        g.clicks(0, &mv),
        Some(Clicks::Cells(vec![[7, 0], [7, 0], [1, 5]]))
    );
    assert_eq!(g.clicks(3, &mv), None, "no seat 3: nothing, no panic");
    for seed in 0..30 {
        let mut g = standard(seed);
        let mut rng = SplitMix(seed);
        while g.turn().seat().is_some() {
            assert_eq!(arbiter_game::check_clicks(&g), Ok(()));
            let mv = random_move(&g, &mut rng);
            g.play(&mv).unwrap();
        }
    }
    let os = DouDizhu::new(&json!({"rules": "openspiel"}), 0).unwrap();
    assert_eq!(
        os.clicks(0, &Move::Pass),
        None,
        "the player lists OpenSpiel's moves"
    );
}

#[test]
fn the_json_session_plays_a_game() {
    use arbiter_game::abi::Session;
    let mut s = Session::<DouDizhu>::new();
    let mut ask = |req: serde_json::Value| -> serde_json::Value {
        serde_json::from_slice(&s.call(&serde_json::to_vec(&req).unwrap())).unwrap()
    };
    let info = &ask(json!({"op": "info"}))["ok"];
    assert_eq!(info["seats"], json!([3]));
    assert_eq!(
        info["kind"],
        json!({"chance": true, "hidden": true, "simultaneous": false})
    );
    assert_eq!(info["config_keys"], json!(["rules"]));
    let bad = ask(json!({"op": "new", "config": {"rules": "botzone"}}));
    assert!(bad["error"].as_str().unwrap().contains("standard"), "{bad}");
    let two = ask(json!({"op": "new", "config": {"players": 2}}));
    assert!(
        two["error"].as_str().unwrap().contains("players must be 3"),
        "{two}"
    );
    let typo = ask(json!({"op": "new", "config": {"rule": "standard"}}));
    assert!(
        typo["error"].as_str().unwrap().contains("\"rule\""),
        "{typo}"
    );
    let st = ask(json!({"op": "new", "seed": 5}))["ok"]["state"].clone();
    let first = Deal::from_seed(5).first_bidder();
    assert_eq!(
        ask(json!({"op": "status", "state": st}))["ok"]["movers"],
        json!([first])
    );
    assert_eq!(
        ask(json!({"op": "legal", "state": st}))["ok"],
        json!(["pass", "bid1", "bid2", "bid3"])
    );
    assert_eq!(
        ask(json!({"op": "play", "state": st, "move": "bid3"}))["ok"],
        json!(null)
    );
    let told = ask(json!({"op": "tell", "state": st, "seat": first}))["ok"].clone();
    assert!(told
        .as_str()
        .unwrap()
        .contains(&format!("LANDLORD {first} 3")));
    let sample = ask(json!({"op": "sample", "state": st, "seat": first, "seed": 3}));
    let copy = sample["ok"]["state"].clone();
    let told_copy = ask(json!({"op": "tell", "state": copy, "seat": first}))["ok"].clone();
    assert_eq!(told, told_copy);
    let view = ask(json!({"op": "view", "state": st, "viewer": "public"}));
    assert_eq!(view["ok"]["board"]["cols"], 16);
    assert_eq!(
        ask(json!({"op": "retire", "state": st, "seat": 1}))["ok"],
        json!(true)
    );
    let clicks = ask(json!({"op": "clicks", "state": st}));
    assert!(clicks["ok"].as_array().unwrap().len() > 10, "{clicks}");
    let playout = ask(json!({"op": "playout", "state": st, "seed": 1}));
    assert_eq!(playout["ok"]["status"]["movers"], json!([]), "{playout}");
}

/// Perft from the deal of seeds 0 to 3 in the standard rules (the openspiel rules' counts
/// are compared with OpenSpiel itself in tests/openspiel.rs).
#[test]
fn perft_of_the_standard_rules() {
    let counts: Vec<u64> = (0..4).map(|seed| perft(&standard(seed), 6)).collect();
    assert_eq!(counts, STANDARD_PERFT_6);
    let after: Vec<u64> = (0..4)
        .map(|seed| {
            let mut g = standard(seed);
            play_all(&mut g, &["bid3"]);
            perft(&g, 4)
        })
        .collect();
    assert_eq!(after, STANDARD_PERFT_BID3_4);
}

const STANDARD_PERFT_6: [u64; 4] = [33121, 26120, 42612, 48767];
const STANDARD_PERFT_BID3_4: [u64; 4] = [3294, 3524, 3999, 4468];

/// The figures of docs/games/dou-dizhu.md:
/// `cargo test --release -p game-dou-dizhu perft_figures -- --ignored --nocapture`.
#[test]
#[ignore]
fn perft_figures() {
    for rules in ["standard", "openspiel"] {
        for seed in 0..4 {
            let g = DouDizhu::new(&json!({ "rules": rules }), seed).unwrap();
            let start: Vec<u64> = (1..=7).map(|d| perft(&g, d)).collect();
            let mut b = g.clone();
            play_all(&mut b, &["bid3"]);
            let bid3: Vec<u64> = (1..=5).map(|d| perft(&b, d)).collect();
            println!("{rules} seed {seed}: from the deal {start:?}; after bid3 {bid3:?}");
        }
    }
}

/// The example of docs/games/dou-dizhu.md and told.rs: seed 1, seat 1 told after the bidding
/// and five solos.
#[test]
fn the_documented_tell() {
    let mut g = standard(1);
    play_all(
        &mut g,
        &["pass", "bid1", "pass", "pass", "4", "5", "6", "7", "9"],
    );
    let expected = "SEAT 1\nRULES standard\nHAND 34556778899TTQKAA2\nFACEUP Q 0\n\
                    BIDS 0:pass 1:bid1 2:pass 0:pass\nLANDLORD 1 1\nKITTY 478\nCOUNTS 16 18 15\n\
                    STAKE 1\nPLAYS 1:4 2:5 0:6 1:7 2:9\nTABLE 2 9\nTURN 0";
    assert_eq!(g.tell(1), expected);
}

#[test]
fn the_kitty_is_face_down_while_bidding_but_in_the_replay() {
    let g = standard(6);
    let kitty_row = |v: &arbiter_game::View| v.pieces.iter().filter(|p| p.at[1] == 3).count();
    let ranks = Deal::from_seed(6)
        .kitty()
        .0
        .iter()
        .filter(|&&n| n > 0)
        .count();
    assert_eq!(kitty_row(&g.view(Viewer::All)), ranks + 1);
    for s in 0..SEATS {
        assert_eq!(kitty_row(&g.view(Viewer::Seat(s))), 1, "its count alone");
    }
    assert_eq!(kitty_row(&g.view(Viewer::Public)), 1);
}

#[test]
fn a_deal_that_is_not_the_pack_is_refused() {
    let mut d = Deal::from_seed(0);
    d.deck[0] = d.deck[1];
    assert!(DouDizhu::from_deal(Rules::Standard, &d).is_err());
    let mut d = Deal::from_seed(0);
    d.faceup = 53;
    assert!(DouDizhu::from_deal(Rules::Standard, &d).is_err());
    // Seed 0's seat 0 holds no 7: it cannot hold the face-up card as a 7.
    let d = Deal::from_seed(0);
    let hands = [d.hand(0), d.hand(1), d.hand(2)];
    let seven = rank_of_char(b'7').unwrap();
    let e = DouDizhu::with_hands(Rules::Standard, hands, d.kitty(), (seven, 0)).unwrap_err();
    assert!(e.contains("face-up"), "{e}");
    assert!(DouDizhu::with_hands(Rules::Standard, hands, d.kitty(), (d.faceup_rank(), 0)).is_ok());
}

#[test]
fn the_longest_plays_fit_in_a_move() {
    // A whole landlord hand of 20 cards as one play: five trios with five solo wings.
    let os = DouDizhu::new(&json!({"rules": "openspiel"}), 0).unwrap();
    let mv = os.parse_move("333444555666777-89TJQ").unwrap();
    assert_eq!(os.format_move(&mv).len(), 21);
    let e = os.parse_move("33344456").unwrap_err();
    assert!(e.contains("with a dash, 333444-56"), "{e}");
    let e = os.parse_move("333345").unwrap_err();
    assert!(e.contains("four with two solos is not a play"), "{e}");
    let g = standard(0);
    let mv = g.parse_move("qjt98777666555444333").unwrap();
    assert_eq!(g.format_move(&mv), "33344455566677789TJQ");
    assert!(g.format_move(&mv).len() <= notation::MAX_MOVE);
}

#[test]
fn forced_moves_are_only_those_everyone_can_see() {
    // The rocket on the table: nothing beats it (standard rules), the pass is forced.
    let mut g = dealt(
        [Some("3345678TTJQKA22BR"), None, None, None],
        '3',
        0,
        Rules::Standard,
    );
    play_all(&mut g, &["bid3", "BR"]);
    assert_eq!(g.forced_move(1), Some(Move::Pass));
    assert_eq!(g.forced_move(0), None, "not seat 0's turn");
    play_all(&mut g, &["pass", "pass"]);
    assert_eq!(g.forced_move(0), None, "a leader with choices");
    // A last card led is forced; in the openspiel rules a bomb may follow the rocket.
    let mut g = dealt(
        [None, Some("3456789TJQKA2222R"), None, None],
        '3',
        0,
        Rules::Standard,
    );
    play_all(&mut g, &["bid1", "pass", "pass", "3", "R", "pass", "pass"]);
    play_all(
        &mut g,
        &["3456789TJQK", "pass", "pass", "2222", "pass", "pass"],
    );
    assert_eq!(g.hand(1).text(), "A");
    assert_eq!(g.forced_move(1), Some(g.parse_move("A").unwrap()));
    let mut os = dealt(
        [Some("3345678TTJQKA22BR"), None, None, None],
        '3',
        0,
        Rules::OpenSpiel,
    );
    play_all(&mut os, &["bid3", "BR"]);
    assert_eq!(os.forced_move(1), None);
}
