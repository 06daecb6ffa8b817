use super::*;
use arbiter_game::abi::Session;
use arbiter_game::view::Mark;
use arbiter_game::{check_clicks, legal, perft};
use serde_json::{json, Value};

use crate::board::{CORNER, NONE, SIDE};

fn game(config: Value) -> ChineseCheckers {
    ChineseCheckers::new(&config, 0).unwrap()
}

fn hole(name: &str) -> u8 {
    STAR.parse(name).unwrap()
}

/// A game of `seats` with an empty board, `to_move` to play.
fn bare(seats: usize, to_move: u8) -> ChineseCheckers {
    let mut g = ChineseCheckers::start(seats, 1000).unwrap();
    g.board = [EMPTY; CELLS];
    g.to_move = to_move;
    g
}

fn put(g: &mut ChineseCheckers, seat: u8, holes: &str) {
    for name in holes.split_whitespace() {
        g.board[usize::from(hole(name))] = seat;
    }
}

fn names(g: &ChineseCheckers) -> Vec<String> {
    let seat = g.turn().seat().unwrap();
    legal(g, seat).iter().map(|m| g.format_move(m)).collect()
}

fn play(g: &mut ChineseCheckers, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.play(&mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn the_star_has_121_holes_six_corners_of_ten_and_names_them_as_the_view_labels_them() {
    let on: Vec<(usize, usize)> = (0..SIDE)
        .flat_map(|r| (0..SIDE).map(move |c| (c, r)))
        .filter(|&(c, r)| STAR.at_place(c, r).is_some())
        .collect();
    assert_eq!(on.len(), CELLS);
    let central = (0..CELLS as u8).filter(|&c| STAR.corner(c).is_none());
    assert_eq!(central.count(), 61, "the hexagon in the middle");
    for (k, corner) in STAR.corners.iter().enumerate() {
        assert!(corner.iter().all(|&c| STAR.corner(c) == Some(k)));
        // Each corner is the opposite one turned half round the centre.
        for &c in corner {
            let (q, r) = STAR.axial[usize::from(c)];
            let turned = STAR.at_place((8 - q) as usize, (8 - r) as usize).unwrap();
            assert_eq!(STAR.corner(turned), Some(board::opposite(k)));
        }
    }
    // The tips and the ends of the long rows, by hand: m17 top, e1 bottom; row 13 runs e13 to
    // q13, row 5 a5 to m5.
    let place = |name: &str| STAR.place(hole(name));
    assert_eq!(place("m17"), [12, 0]);
    assert_eq!(place("e1"), [4, 16]);
    assert_eq!((place("e13"), place("q13")), ([4, 4], [16, 4]));
    assert_eq!((place("a5"), place("m5")), ([0, 12], [12, 12]));
    assert_eq!(hole("m17"), 0, "OpenSpiel's hole 0 is the top tip");
    assert_eq!(hole("e1"), 120);
    assert_eq!(STAR.parse("a1").unwrap_err(), "a1 is off the star");
    assert!(STAR.parse("r9").unwrap_err().contains("a to q"));
    assert!(STAR.parse("i18").is_err() && STAR.parse("i0").is_err());
    for c in 0..CELLS as u8 {
        assert_eq!(STAR.parse(&STAR.name(c)), Ok(c));
        // Neighbours are mutual: direction d's neighbour has us in the opposite direction.
        for d in 0..6 {
            let n = STAR.step[usize::from(c)][d];
            if n != NONE {
                assert_eq!(STAR.step[usize::from(n)][5 - d], c);
                assert_eq!(STAR.distance(c, n), 1);
            }
        }
    }
}

#[test]
fn each_seat_count_starts_in_openspiel_corners_and_other_counts_are_refused() {
    let corners = |n: usize| -> Vec<usize> {
        let g = game(json!({ "players": n }));
        (0..n).map(|s| g.home(s)).collect()
    };
    assert_eq!(corners(2), [0, 3]);
    assert_eq!(corners(3), [0, 2, 4]);
    assert_eq!(corners(4), [0, 1, 3, 4]);
    assert_eq!(corners(6), [0, 1, 2, 3, 4, 5]);
    for n in [2, 3, 4, 6] {
        let g = game(json!({ "players": n }));
        for s in 0..n {
            let mine = g.board.iter().filter(|&&x| usize::from(x) == s).count();
            assert_eq!(mine, CORNER);
            assert_eq!(g.target(s), (g.home(s) + 3) % 6);
            assert_eq!(g.pieces_home(s), 0);
            // By hand: the front row (4 pieces) is 10 rows from the target's front row, the
            // next 11, 12 and 13: 40 + 33 + 24 + 13.
            assert_eq!(g.steps_to_go(s), 110);
        }
    }
    assert_eq!(game(json!({})).seats(), 2);
    assert_eq!(
        game(json!({})).pieces_home(5),
        0,
        "no seat 5: nothing, no panic"
    );
    let five = ChineseCheckers::new(&json!({"players": 5}), 0).unwrap_err();
    assert_eq!(five, "players must be 2, 3, 4 or 6");
    let five = ChineseCheckers::start(5, 10).unwrap_err();
    assert!(five.contains("2, 3, 4 or 6, not 5"), "{five}");
    assert!(ChineseCheckers::new(&json!({"players": 7}), 0).is_err());
    assert!(ChineseCheckers::new(&json!({"players": 1}), 0).is_err());
    let bound = ChineseCheckers::new(&json!({"max_moves": 0}), 0).unwrap_err();
    assert!(bound.contains("max_moves"), "{bound}");
    assert!(ChineseCheckers::new(&json!({"max_moves": "10"}), 0).is_err());
}

#[test]
fn the_first_turn_has_eight_steps_and_six_jumps_in_every_seat_count() {
    // Written out by hand: the front row (j14..m14) steps down-left and down-right; the row
    // behind it (k15..m15) jumps over it; nothing else moves. Ordered by start hole, then end.
    let expected = "k15-i13 k15-k13 l15-j13 l15-l13 m15-k13 m15-m13 \
                    j14-i13 j14-j13 k14-j13 k14-k13 l14-k13 l14-l13 m14-l13 m14-m13";
    for n in [2, 3, 4, 6] {
        let g = game(json!({ "players": n }));
        assert_eq!(names(&g).join(" "), expected);
        assert_eq!(perft(&g, 1), 14);
    }
    // Two and three seats start apart: no first move changes the second seat's 14.
    for n in [2, 3] {
        assert_eq!(perft(&game(json!({ "players": n })), 2), 14 * 14);
    }
}

#[test]
fn perft_to_depth_four_for_every_seat_count() {
    // The same as OpenSpiel's, counted by turns (tests/openspiel.rs runs it).
    let expected: [(usize, [u64; 4]); 4] = [
        (2, [14, 196, 4760, 115600]),
        (3, [14, 196, 2744, 66640]),
        (4, [14, 199, 2786, 39601]),
        (6, [14, 199, 2828, 40189]),
    ];
    for (n, counts) in expected {
        let g = game(json!({ "players": n }));
        let ours: Vec<u64> = (1..=4).map(|d| perft(&g, d)).collect();
        assert_eq!(ours, counts, "{n} seats");
    }
}

#[test]
fn a_lone_piece_steps_to_its_six_neighbours() {
    let mut g = bare(2, 0);
    put(&mut g, 0, "i9");
    assert_eq!(names(&g).join(" "), "i9-i10 i9-j10 i9-h9 i9-j9 i9-h8 i9-i8");
}

#[test]
fn two_chains_to_one_hole_are_one_move_and_either_can_be_written() {
    // i9 jumps j9 to k9 or i8 to i7; from k9 it may go on over j8 to i7 too. Two chains reach
    // i7: one move. Four steps are free.
    let mut g = bare(2, 0);
    put(&mut g, 0, "i9");
    put(&mut g, 1, "j9 i8 j8");
    assert_eq!(names(&g).join(" "), "i9-i10 i9-j10 i9-h9 i9-k9 i9-h8 i9-i7");
    let direct = g.parse_move("i9-i7").unwrap();
    assert_eq!(g.parse_move("i9-k9-i7"), Ok(direct));
    let mut other = g.clone();
    play(&mut g, "i9-i7");
    play(&mut other, "i9-k9-i7");
    assert_eq!(g.tell(0), other.tell(0));
    // The path drawn is the shortest: one jump, not two.
    let lines = g.view(Viewer::All).lines;
    assert_eq!(lines.len(), 1);
    assert_eq!(
        (lines[0].from, lines[0].to),
        (STAR.place(hole("i9")), STAR.place(hole("i7")))
    );
}

#[test]
fn a_chain_stops_wherever_the_mover_likes_and_never_lands_twice() {
    // i9 over j9 to k9, then over l9 to m9: both are moves. From m9 back over l9 lands on k9
    // again, and from k9 back over j9 on the start: neither is a new move.
    let mut g = bare(2, 0);
    put(&mut g, 0, "i9");
    put(&mut g, 1, "j9 l9");
    let moves = names(&g);
    assert!(moves.contains(&"i9-k9".into()) && moves.contains(&"i9-m9".into()));
    assert_eq!(
        moves.len(),
        5 + 2,
        "five steps and two chain ends: {moves:?}"
    );
    play(&mut g, "i9-k9-m9");
    let path: Vec<[u16; 2]> = g.view(Viewer::All).lines.iter().map(|l| l.to).collect();
    assert_eq!(path, [STAR.place(hole("k9")), STAR.place(hole("m9"))]);
    // Written chains are checked hole by hole.
    let mut g = bare(2, 0);
    put(&mut g, 0, "i9");
    put(&mut g, 1, "j9 l9");
    let e = g.parse_move("i9-k9-i9").unwrap_err();
    assert_eq!(e, "the chain lands on i9 twice");
    let e = g.parse_move("i9-k9-k7").unwrap_err();
    assert!(e.starts_with("k7 is not one jump from k9"), "{e}");
    // A chain jumps over anyone's pieces, the mover's own too.
    let mut g = bare(2, 0);
    put(&mut g, 0, "i9 j9");
    assert!(names(&g).contains(&"i9-k9".into()));
}

#[test]
fn a_blocked_seat_passes_and_only_then() {
    // e1, the bottom tip, has two neighbours (e2, f2); with them and the holes beyond (e3,
    // g3) taken it cannot move.
    let mut g = bare(2, 0);
    put(&mut g, 0, "e1");
    put(&mut g, 1, "e2 f2 e3 g3");
    assert_eq!(names(&g), ["pass"]);
    assert_eq!(g.forced_move(0), Some(Move::Pass));
    assert_eq!(g.clicks(0, &Move::Pass), None);
    check_clicks(&g).unwrap();
    play(&mut g, "pass");
    assert_eq!((g.turns(), g.turn()), (1, Turn::Seat(1)));
    assert_eq!(g.forced_move(1), None);
    assert_eq!(
        g.play(&Move::Pass),
        Err("pass is only for a seat none of whose pieces can move".into())
    );
}

#[test]
fn refused_moves_say_why_and_change_nothing() {
    let mut g = game(json!({}));
    let before = g.tell(0);
    let err = |g: &mut ChineseCheckers, m: &str| {
        let mv = g.parse_move(m).unwrap();
        g.play(&mv).unwrap_err()
    };
    assert_eq!(err(&mut g, "i9-i8"), "i9 is empty");
    assert_eq!(err(&mut g, "e1-e2"), "e1 holds seat 1's piece, not yours");
    assert_eq!(
        err(&mut g, "m17-m16"),
        "m16 is no step or chain of jumps from m17"
    );
    assert_eq!(
        err(&mut g, "j14-j12"),
        "j12 is no step or chain of jumps from j14"
    );
    assert_eq!(
        g.play(&Move::Go { from: 200, to: 0 }),
        Err("no such hole".into())
    );
    assert_eq!(g.tell(0), before);
    assert!(g
        .parse_move("m17")
        .unwrap_err()
        .contains("start hole and the end hole"));
    assert!(g.parse_move("").is_err());
    assert!(g.parse_move("m17-").is_err());
    assert!(g.parse_move("PASS").is_err());
    assert_eq!(g.parse_move("a1-b2").unwrap_err(), "a1 is off the star");
    let e = g.parse_move(&"x".repeat(100_000)).unwrap_err();
    assert!(e.len() < 100, "{e}");
    let long = ["m17"; 200].join("-");
    assert!(g.parse_move(&long).unwrap_err().contains("too long"));
}

/// Seat 0 of two with nine pieces in the south corner and the tenth a step from h4, the
/// corner's hole left free.
fn about_to_win() -> ChineseCheckers {
    let mut g = bare(2, 0);
    for &c in &STAR.corners[3] {
        g.board[usize::from(c)] = 0;
    }
    g.board[usize::from(hole("h4"))] = EMPTY;
    put(&mut g, 0, "h5");
    put(&mut g, 1, "m17 l16 i9");
    g
}

#[test]
fn the_first_seat_with_all_ten_pieces_home_wins_and_the_game_ends() {
    let mut g = about_to_win();
    assert_eq!(g.pieces_home(0), 9);
    assert!(g.outcome().is_none());
    play(&mut g, "h5-h4");
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [1, 2]);
    assert_eq!(o.scores, [10, 2]);
    assert_eq!(o.reason, "seat 0 (north) has all ten pieces home");
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.play(&Move::Pass), Err("the game is over".into()));
    assert!(names_over(&g).is_empty());
    assert!(g.tell(1).contains("MOVER none"));
}

fn names_over(g: &ChineseCheckers) -> Vec<Move> {
    let mut out = Vec::new();
    g.legal_moves(0, &mut out);
    out
}

#[test]
fn at_the_move_limit_seats_are_placed_by_pieces_home_then_steps_to_go() {
    // From the start, two turns: first jumps (two rows nearer), second steps (one).
    let mut g = game(json!({"max_moves": 2}));
    play(&mut g, "k15-i13 f4-f5");
    let o = g.outcome().unwrap();
    assert_eq!((g.steps_to_go(0), g.steps_to_go(1)), (108, 109));
    assert_eq!((o.places, o.scores), (vec![1, 2], vec![0, 0]));
    assert!(
        o.reason.starts_with("the move limit: 2 turns played"),
        "{}",
        o.reason
    );
    // Three seats by hand: seat 2 has five pieces home; seats 0 and 1 three each, with one
    // piece out, 5 steps from seat 0's target (i9) and 6 from seat 1's (i8).
    let mut g = bare(3, 0);
    let fill = |g: &mut ChineseCheckers, seat: u8, k: usize| {
        let target = g.target(usize::from(seat));
        for &c in &STAR.corners[target][..k] {
            g.board[usize::from(c)] = seat;
        }
    };
    fill(&mut g, 0, 3);
    fill(&mut g, 1, 3);
    fill(&mut g, 2, 5);
    put(&mut g, 0, "i9");
    put(&mut g, 1, "i8");
    g.turns = g.max_moves;
    assert_eq!(
        (g.steps_to_go(0), g.steps_to_go(1), g.steps_to_go(2)),
        (5, 6, 0)
    );
    assert_eq!(g.outcome().unwrap().places, [2, 3, 1]);
    // Moved to j10, seat 1's piece is 5 steps out too: seats 0 and 1 share second place.
    g.board[usize::from(hole("i8"))] = EMPTY;
    put(&mut g, 1, "j10");
    assert_eq!(g.steps_to_go(1), 5);
    assert_eq!(g.outcome().unwrap().places, [2, 2, 1]);
}

#[test]
fn a_failed_seat_leaves_the_board_and_the_others_play_on() {
    let mut g = game(json!({"players": 3}));
    play(&mut g, "k15-i13");
    assert_eq!(g.turn(), Turn::Seat(1));
    assert!(g.retire(1), "seat 1 fails on its turn");
    assert!(g.board.iter().all(|&x| x != 1), "its pieces are gone");
    assert_eq!(g.turn(), Turn::Seat(2));
    assert!(g.tell(0).contains("SEAT 1 se nw 0 out"));
    assert!(g.retire(1), "a seat already out stays out");
    let mover = |g: &ChineseCheckers| g.turn().seat().unwrap();
    let mut order = Vec::new();
    for _ in 0..5 {
        order.push(mover(&g));
        let mv = legal(&g, mover(&g))[0];
        g.play(&mv).unwrap();
    }
    assert_eq!(order, [2, 0, 2, 0, 2], "seat 1's turns are skipped");
    assert!(g.retire(2), "seat 2 fails while seat 0 is to move");
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, "every other seat failed");
    assert_eq!(o.places, [1, 3, 2], "the later failure places better");
    assert!(!g.retire(0), "over: nothing to retire from");
    assert!(!game(json!({"players": 3})).retire(3), "no seat 3");
}

#[test]
fn a_failed_seat_never_blocks_a_corner_and_is_placed_last_at_the_limit() {
    // Four seats: seat 2 starts in the south, seat 0's target. Out, it leaves it empty.
    let mut g = game(json!({"players": 4, "max_moves": 6}));
    assert!(g.retire(2));
    assert!(STAR.corners[g.target(0)]
        .iter()
        .all(|&c| g.board[usize::from(c)] == EMPTY));
    while let Turn::Seat(s) = g.turn() {
        assert_ne!(s, 2);
        let mv = legal(&g, s)[0];
        g.play(&mv).unwrap();
    }
    let o = g.outcome().unwrap();
    assert!(o.reason.starts_with("the move limit"));
    assert_eq!(o.places[2], 4);
    assert!(o.check(4).is_ok());
    // In two seats a failure leaves one seat: it wins.
    let mut g = game(json!({}));
    assert!(g.retire(0));
    assert_eq!(g.outcome().unwrap().places, [2, 1]);
}

/// A small deterministic generator for the random games.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn check_position(g: &ChineseCheckers) {
    let n = g.seats();
    let v = g.view(Viewer::All);
    v.check(n).unwrap();
    assert_eq!(
        v.pieces.len(),
        g.board.iter().filter(|&&x| x != EMPTY).count()
    );
    assert_eq!(v, g.view(Viewer::Public), "nothing is hidden");
    let tell = g.tell(0);
    assert!(tell.lines().all(|l| !l.is_empty()), "{tell}");
    assert_eq!(tell.lines().count(), 3 + n + SIDE);
    assert!(tell.lines().skip(3 + n).all(|row| row.len() == SIDE));
    check_clicks(g).unwrap();
}

#[test]
fn random_games_end_with_a_ranking_for_every_seat_count() {
    let mut rng = Lcg(7);
    for n in [2, 3, 4, 6] {
        for k in 0..3 {
            let bound = if k == 0 { 1000 } else { 150 };
            let mut g = game(json!({"players": n, "max_moves": bound}));
            while let Turn::Seat(s) = g.turn() {
                let moves = legal(&g, s);
                assert!(!moves.is_empty());
                for m in &moves {
                    assert_eq!(g.parse_move(&g.format_move(m)), Ok(*m));
                    assert!(g.format_move(m).len() <= 32);
                }
                if g.turns() % 37 == 0 {
                    check_position(&g);
                }
                let mv = moves[rng.below(moves.len())];
                g.play(&mv).unwrap();
                // Now and then a seat fails, in games of three or more.
                if n > 2 && rng.below(400) == 0 {
                    let seat = rng.below(n);
                    assert!(g.turn().is_over() || g.retire(seat));
                }
            }
            check_position(&g);
            let o = g.outcome().unwrap();
            o.check(n).unwrap();
            assert!(g.turns() as usize <= bound);
        }
    }
}

#[test]
fn the_view_tints_each_target_corner_and_labels_rows_and_columns() {
    let g = game(json!({"players": 3}));
    let v = g.view(Viewer::All);
    assert_eq!(v.board.col_labels.first().map(String::as_str), Some("a"));
    assert_eq!(v.board.col_labels.last().map(String::as_str), Some("q"));
    assert_eq!(v.board.row_labels.first().map(String::as_str), Some("17"));
    let owned = |seat: Option<u8>| {
        v.highlights
            .iter()
            .filter(|h| h.mark == Mark::Owned && h.seat == seat)
            .count()
    };
    assert_eq!(
        (owned(Some(0)), owned(Some(1)), owned(Some(2))),
        (10, 10, 10)
    );
    assert_eq!(owned(None), CELLS - 30, "the rest of the star grey");
    // The rhombus's places off the star are off the board: 17 x 17 - 121 of them, none a hole.
    assert_eq!(v.board.off.len(), 17 * 17 - CELLS);
    for cell in 0..CELLS as u8 {
        assert!(v.board.has(STAR.place(cell)), "hole {cell} is on the board");
    }
    assert!(!v.board.has([0, 0]), "the rhombus's corner is not a hole");
    v.check(3).unwrap();
    // Seat 0's target is the south corner: its tip e1 tinted in seat 0's colour.
    assert!(v
        .highlights
        .iter()
        .any(|h| h.at == STAR.place(hole("e1")) && h.seat == Some(0)));
    for p in &v.pieces {
        assert_eq!(p.label, p.seat.map(|s| s.to_string()), "{p:?}");
    }
    let mut g = g;
    play(&mut g, "k15-i13");
    let v = g.view(Viewer::All);
    let last: Vec<[u16; 2]> = v
        .highlights
        .iter()
        .filter(|h| h.mark == Mark::Last)
        .map(|h| h.at)
        .collect();
    assert_eq!(last, [STAR.place(hole("k15")), STAR.place(hole("i13"))]);
    assert_eq!(v.lines.len(), 1);
    assert!(v.text.iter().any(|t| t == "last: seat 0 played k15-i13"));
    assert_eq!(
        g.clicks(0, &g.parse_move("j14-j13").unwrap()),
        Some(Clicks::Cells(vec![
            STAR.place(hole("j14")),
            STAR.place(hole("j13"))
        ]))
    );
}

#[test]
fn bots_are_told_the_seats_and_the_rhombus_row_by_row() {
    let mut g = game(json!({"players": 2, "max_moves": 50}));
    play(&mut g, "k15-i13");
    let tell = g.tell(1);
    let lines: Vec<&str> = tell.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "PLAYERS 2",
            "TURNS 1 50",
            "MOVER 1",
            "SEAT 0 n s 0",
            "SEAT 1 s n 0"
        ]
    );
    // Row 17 (the top): only m17 is a hole, seat 0's piece.
    assert_eq!(lines[5], "############0####");
    // Row 15 (the third): k15 left by the jump.
    assert_eq!(lines[7], "##########.00####");
    // Row 13: e13..q13, i13 taken by the jump.
    assert_eq!(lines[9], "####....0........");
    assert_eq!(lines.len(), 5 + 17);
    let holes: usize = lines[5..]
        .iter()
        .map(|r| r.chars().filter(|&c| c != '#').count())
        .sum();
    assert_eq!(holes, CELLS);
    assert_eq!(g.tell(0), tell, "everyone is told the same");
    assert_eq!(
        ChineseCheckers::new(&json!({}), 1).unwrap().tell(0),
        ChineseCheckers::new(&json!({}), 99).unwrap().tell(0),
        "no chance: the seed changes nothing"
    );
}

fn ask(s: &mut Session<ChineseCheckers>, request: Value) -> Value {
    let bytes = serde_json::to_vec(&request).unwrap();
    serde_json::from_slice(&s.call(&bytes)).unwrap()
}

#[test]
fn the_json_session_plays_and_refuses_by_name() {
    let mut s = Session::<ChineseCheckers>::new();
    let info = ask(&mut s, json!({"op": "info"}))["ok"].clone();
    assert_eq!(
        info["seats"],
        json!([2, 3, 4, 6]),
        "no 5: seat counts, not a range"
    );
    assert_eq!(info["config_keys"], json!(["max_moves"]));
    assert_eq!(info["kind"]["simultaneous"], false);
    let five = ask(&mut s, json!({"op": "new", "config": {"players": 5}}));
    assert!(
        five["error"].as_str().unwrap().contains("2, 3, 4 or 6"),
        "{five}"
    );
    let typo = ask(&mut s, json!({"op": "new", "config": {"max_move": 5}}));
    assert!(
        typo["error"].as_str().unwrap().contains("\"max_move\""),
        "{typo}"
    );
    let started = ask(&mut s, json!({"op": "new", "config": {"players": 6}}));
    assert_eq!(started["ok"]["seats"], 6);
    let st = started["ok"]["state"].clone();
    let legal = ask(&mut s, json!({"op": "legal", "state": st}));
    assert_eq!(legal["ok"].as_array().unwrap().len(), 14);
    let played = ask(
        &mut s,
        json!({"op": "play", "state": st, "move": "l15-j13"}),
    );
    assert_eq!(played["ok"], Value::Null, "{played}");
    let status = ask(&mut s, json!({"op": "status", "state": st}))["ok"].clone();
    assert_eq!(status["movers"], json!([1]));
    assert_eq!(status["scores"], json!([0, 0, 0, 0, 0, 0]));
    let bad = ask(&mut s, json!({"op": "play", "state": st, "move": "i9-i8"}));
    assert_eq!(bad["illegal"], "i9 is empty", "{bad}");
    let clicks = ask(&mut s, json!({"op": "clicks", "state": st}));
    assert_eq!(clicks["ok"].as_array().unwrap().len(), 14);
    let view = ask(&mut s, json!({"op": "view", "state": st, "viewer": 3}));
    assert_eq!(view["ok"]["board"]["grid"], "hex");
    assert!(ask(&mut s, json!({"op": "retire", "state": st, "seat": 4}))["ok"] == true);
    let status = ask(&mut s, json!({"op": "status", "state": st}))["ok"].clone();
    assert_eq!(status["movers"], json!([1]));
}
