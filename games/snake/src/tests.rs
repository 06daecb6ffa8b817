use super::*;
use arbiter_game::abi::Session;
use arbiter_game::view::Shape;
use arbiter_game::{check_clicks, joint_moves, perft};
use serde_json::{json, Value};
use std::collections::VecDeque;

fn game(config: Value, seed: u64) -> SnakeGame {
    SnakeGame::new(&config, seed).unwrap()
}

fn cell(col: i32, row: i32) -> Cell {
    Cell { col, row }
}

/// A game on `cols x rows` whose snakes have these bodies (head first, `(col, row)`), with the
/// food where given.
fn position(size: (usize, usize), bodies: &[&[(i32, i32)]], food: Option<(i32, i32)>) -> SnakeGame {
    let config = json!({"players": bodies.len(), "cols": size.0, "rows": size.1});
    let mut g = game(config, 0);
    for (snake, body) in g.snakes.iter_mut().zip(bodies) {
        snake.body = body
            .iter()
            .map(|&(c, r)| cell(c, r))
            .collect::<VecDeque<_>>();
        snake.fruits = body.len() as u32 - 1;
    }
    g.food = food.map(|(c, r)| cell(c, r));
    g
}

/// Plays one turn: a direction per living snake, lowest seat first (`u`, `r`, `d`, `l`).
fn step(g: &mut SnakeGame, dirs: &str) {
    let movers: Vec<Seat> = g.turn().movers().iter().collect();
    let moves: Vec<(Seat, Move)> = movers
        .iter()
        .zip(dirs.chars())
        .map(|(&s, d)| {
            let dir = match d {
                'u' => Dir::Up,
                'r' => Dir::Right,
                'd' => Dir::Down,
                _ => Dir::Left,
            };
            (s, Move::from(dir))
        })
        .collect();
    g.play_together(&moves)
        .unwrap_or_else(|e| panic!("{dirs}: {e:?}"));
}

fn fate(g: &SnakeGame, seat: Seat) -> Option<(u32, Cause)> {
    g.snakes()[seat].fate.map(|f| (f.turn, f.cause))
}

#[test]
fn snakes_start_at_openspiels_places_and_the_food_comes_from_the_seed() {
    let g = game(json!({}), 0);
    let heads: Vec<Cell> = g.snakes().iter().filter_map(Snake::head).collect();
    assert_eq!(heads, [cell(1, 5), cell(8, 5)]);
    let g4 = game(json!({"players": 4}), 0);
    let heads: Vec<Cell> = g4.snakes().iter().filter_map(Snake::head).collect();
    assert_eq!(heads, [cell(1, 1), cell(8, 1), cell(1, 8), cell(8, 8)]);
    let g3 = game(json!({"players": 3, "cols": 7, "rows": 5}), 0);
    let heads: Vec<Cell> = g3.snakes().iter().filter_map(Snake::head).collect();
    assert_eq!(heads, [cell(1, 1), cell(5, 1), cell(1, 3)]);
    // The first food: of the 98 empty cells counted row by row, the one the seed draws.
    let mut bare = g.clone();
    bare.food = None;
    let empty = bare.empty_cells();
    assert_eq!(empty.len(), 98);
    assert_eq!(g.food(), Some(empty[food_pick(0, 0, 98)]));
    assert_eq!(g.placed(), 1);
    assert_eq!(
        game(json!({}), 0).food(),
        g.food(),
        "the same seed, the same food"
    );
    let foods: Vec<Option<Cell>> = (0..20).map(|s| game(json!({}), s).food()).collect();
    assert!(foods.iter().any(|f| *f != g.food()));
    assert_eq!(
        g.tell(1),
        format!(
            "SNAKE cols 10 rows 10 seats 2 horizon 100\nSEAT 1\nTURN 1\nFOOD {},{}\n\
             ALIVE 0 0 1,5\nALIVE 1 0 8,5",
            g.food().unwrap().col,
            g.food().unwrap().row
        )
    );
}

#[test]
fn moves_are_written_as_directions() {
    let g = game(json!({}), 0);
    let legal: Vec<String> = arbiter_game::legal(&g, 1)
        .iter()
        .map(|m| g.format_move(m))
        .collect();
    assert_eq!(legal, ["up", "right", "down", "left"]);
    for m in &legal {
        assert_eq!(g.format_move(&g.parse_move(m).unwrap()), *m);
    }
    assert_eq!(g.parse_move(" North\n"), Ok(Move::from(Dir::Up)));
    assert_eq!(g.parse_move("WEST"), Ok(Move::from(Dir::Left)));
    for bad in ["", "u", "upp", "up left", "0"] {
        let e = g.parse_move(bad).unwrap_err();
        assert!(
            e.ends_with("is not a move: up, right, down or left"),
            "{bad:?}: {e}"
        );
    }
}

#[test]
fn a_head_off_the_grid_dies_and_the_last_snake_left_is_first() {
    let mut g = game(json!({}), 3);
    step(&mut g, "ll");
    assert_eq!(g.turn().movers().len(), 2);
    step(&mut g, "lr");
    assert_eq!(fate(&g, 0), Some((2, Cause::Wall)));
    assert!(g.snakes()[0].body.is_empty(), "taken off the grid");
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [2, 1]);
    assert_eq!(o.reason, "seat 1 is the last snake left");
    assert_eq!(g.turn(), Turn::Over);
    assert!(
        g.tell(0).contains("\nOVER 2\n") && g.tell(0).ends_with("DEAD 0 2 wall 0\nALIVE 1 0 8,5")
    );
}

#[test]
fn heads_that_meet_all_die_and_the_others_play_on() {
    // Seats 0 and 1 both step onto (2, 1); seats 2 and 3 play on.
    let mut g = position(
        (6, 6),
        &[&[(1, 1)], &[(3, 1)], &[(1, 4)], &[(4, 4)]],
        Some((5, 5)),
    );
    step(&mut g, "rluu");
    assert_eq!(fate(&g, 0), Some((1, Cause::HeadOn)));
    assert_eq!(fate(&g, 1), Some((1, Cause::HeadOn)));
    assert_eq!(g.turn(), Turn::Together([2, 3].into_iter().collect()));
    // Two snakes reaching the food at once meet there: both die, the food stays.
    let mut g = position((6, 6), &[&[(1, 1)], &[(3, 1)], &[(1, 4)]], Some((2, 1)));
    step(&mut g, "rlu");
    assert_eq!(g.food(), Some(cell(2, 1)));
    assert_eq!(g.scores(), [0, 0, 0]);
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [2, 2, 1]);
}

#[test]
fn a_head_on_a_body_dies_judged_against_the_bodies_after_the_step() {
    // Seat 0 steps onto seat 1's neck: dies. Seat 1 is fine.
    let mut g = position(
        (8, 8),
        &[&[(2, 3)], &[(3, 2), (3, 3), (3, 4)]],
        Some((7, 7)),
    );
    step(&mut g, "ru");
    assert_eq!(fate(&g, 0), Some((1, Cause::Body)));
    assert!(g.snakes()[1].alive());
    // Onto the cell a tail leaves in the same step: fine.
    let mut g = position(
        (8, 8),
        &[&[(2, 4)], &[(3, 2), (3, 3), (3, 4)]],
        Some((7, 7)),
    );
    step(&mut g, "ru");
    assert!(g.snakes()[0].alive() && g.snakes()[1].alive());
    // ...unless that snake eats: its tail stays.
    let mut g = position(
        (8, 8),
        &[&[(2, 4)], &[(3, 2), (3, 3), (3, 4)]],
        Some((3, 1)),
    );
    step(&mut g, "ru");
    assert_eq!(fate(&g, 0), Some((1, Cause::Body)));
    assert_eq!(g.snakes()[1].length(), 4);
    // Back onto one's own neck: a snake of three dies; of two it follows its tail (as in
    // OpenSpiel: the tail has moved on).
    let mut g = position(
        (8, 8),
        &[&[(2, 2), (2, 3), (2, 4)], &[(6, 6)]],
        Some((7, 7)),
    );
    step(&mut g, "du");
    assert_eq!(fate(&g, 0), Some((1, Cause::Body)));
    let mut g = position((8, 8), &[&[(2, 2), (2, 3)], &[(6, 6)]], Some((7, 7)));
    step(&mut g, "du");
    assert!(g.snakes()[0].alive());
    assert_eq!(g.snakes()[0].body, [cell(2, 3), cell(2, 2)]);
}

#[test]
fn two_heads_entering_each_others_bodies_both_die_whatever_their_seats() {
    // Seat 0's head enters seat 1's body and seat 1's enters seat 0's in one step. OpenSpiel
    // judges its seats in order, taking a seat found dead out of the bodies the later seats
    // are judged against, and so lets seat 1 live; here both die.
    let mut g = position(
        (6, 6),
        &[&[(2, 2), (2, 1), (2, 0)], &[(3, 1), (3, 2), (3, 3)]],
        Some((5, 5)),
    );
    // 0 steps right onto (3, 2), 1's middle; 1 steps left onto (2, 1), 0's middle.
    step(&mut g, "rl");
    assert_eq!(fate(&g, 0), Some((1, Cause::Body)));
    assert_eq!(fate(&g, 1), Some((1, Cause::Body)));
    assert_eq!(g.outcome().unwrap().places, [1, 1]);
}

#[test]
fn eating_grows_the_snake_and_brings_new_food_from_the_seed() {
    let mut g = position((6, 6), &[&[(1, 1)], &[(4, 4)]], Some((2, 1)));
    g.seed = 11;
    let placed = g.placed();
    step(&mut g, "ru");
    assert_eq!(g.scores(), [1, 0]);
    assert_eq!(g.snakes()[0].body, [cell(2, 1), cell(1, 1)]);
    let mut bare = g.clone();
    bare.food = None;
    let empty = bare.empty_cells();
    assert_eq!(empty.len(), 36 - 3);
    assert_eq!(g.food(), Some(empty[food_pick(11, placed, empty.len())]));
    assert_eq!(g.placed(), placed + 1);
    assert!(g.tell(0).contains("\nALIVE 0 1 2,1 1,1\n"));
    // A search's copy draws the food after the current one from its own seed.
    let mut copy = g.clone();
    copy.reseed(99);
    assert_eq!(copy.food(), g.food());
    let futures: Vec<Option<Cell>> = (0..12)
        .map(|s| {
            let mut c = g.clone();
            c.reseed(s);
            c.food = None;
            c.place_food();
            c.food
        })
        .collect();
    assert!(futures.iter().any(|f| *f != futures[0]), "{futures:?}");
}

#[test]
fn places_go_by_the_turn_of_death_then_by_length() {
    // 4 snakes on 8 x 8: seat 3 dies in turn 1, seats 0 and 2 together in turn 2 (0 the
    // longer), seat 1 lives.
    let mut g = position(
        (8, 8),
        &[&[(1, 1), (0, 1)], &[(6, 1)], &[(1, 6)], &[(7, 6)]],
        Some((4, 4)),
    );
    step(&mut g, "uldr");
    assert_eq!(fate(&g, 3), Some((1, Cause::Wall)));
    step(&mut g, "uud");
    assert_eq!(g.alive(), SeatSet::one(1));
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [2, 1, 3, 4]);
    o.check(4).unwrap();
    // At the horizon the living share first place, the longer first.
    let mut g = position((6, 6), &[&[(1, 1)], &[(4, 1)], &[(1, 4)]], Some((2, 1)));
    g.settings.horizon = 2;
    step(&mut g, "rdu");
    step(&mut g, "ddu");
    assert_eq!(g.turn(), Turn::Over);
    let o = g.outcome().unwrap();
    assert_eq!(o.places, [1, 2, 2]);
    assert_eq!(o.reason, "the horizon came with 3 snakes alive");
}

#[test]
fn a_seat_that_fails_is_out_and_the_others_play_on_to_a_ranking() {
    let mut g = game(json!({"players": 4}), 5);
    step(&mut g, "rudu");
    assert!(g.retire(2));
    assert_eq!(fate(&g, 2), Some((2, Cause::Retired)));
    assert!(g.snakes()[2].body.is_empty());
    assert_eq!(g.turn(), Turn::Together([0, 1, 3].into_iter().collect()));
    assert_eq!(
        g.play_together(&[
            (0, Dir::Up.into()),
            (1, Dir::Up.into()),
            (2, Dir::Up.into()),
            (3, Dir::Up.into())
        ]),
        Err((2, "seat 2 is out: it has no snake to move".into()))
    );
    // Seat 1 runs into the top wall in the same turn: it ties with the failed seat.
    step(&mut g, "dud");
    assert_eq!(fate(&g, 1), Some((2, Cause::Wall)), "{}", g.tell(0));
    let mut left = 10;
    while !g.turn().is_over() && left > 0 {
        step(&mut g, "ll");
        left -= 1;
    }
    let o = g.outcome().unwrap();
    o.check(4).unwrap();
    assert_eq!(o.places[1], o.places[2], "out in the same turn: tied");
    assert_eq!(o.places, [2, 3, 3, 1]);
    assert!(g.retire(2), "already out: nothing to do");
    // Down to one snake, the game is over.
    let mut g = game(json!({"players": 3}), 5);
    g.retire(0);
    assert!(!g.turn().is_over());
    g.retire(1);
    assert_eq!(g.outcome().unwrap().places, [2, 2, 1]);
}

/// Plays `g` to its end, each snake stepping at random, away from walls and bodies when it
/// can, from `seed`.
fn play_out(g: &mut SnakeGame, seed: u64) {
    let mut rng = seed | 1;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    while !g.turn().is_over() {
        let (cols, rows) = (g.settings().cols, g.settings().rows);
        let joint: Vec<(Seat, Move)> = g
            .turn()
            .movers()
            .iter()
            .map(|s| {
                let head = g.snakes()[s].head().unwrap();
                let safe: Vec<Dir> = Dir::ALL
                    .into_iter()
                    .filter(|&d| {
                        let to = head.step(d);
                        to.inside(cols, rows) && !g.snakes().iter().any(|o| o.body.contains(&to))
                    })
                    .collect();
                let dir = match safe.len() {
                    0 => Dir::ALL[next(4)],
                    n => safe[next(n)],
                };
                (s, Move::from(dir))
            })
            .collect();
        g.play_together(&joint).unwrap();
    }
}

#[test]
fn random_games_end_in_a_ranking_with_views_and_clicks_that_check() {
    let mut lengths = 0;
    for seed in 0..90 {
        let players = 2 + seed as usize % 3;
        let config = json!({"players": players, "cols": 5 + seed % 8, "rows": 4 + seed % 7});
        let mut g = game(config.clone(), seed);
        let mut h = game(config, seed);
        check_clicks(&g).unwrap();
        play_out(&mut g, seed);
        play_out(&mut h, seed);
        let o = g.outcome().unwrap();
        o.check(players).unwrap();
        assert_eq!(Some(o.clone()), h.outcome(), "deterministic");
        assert_eq!(g.tell(0), h.tell(0));
        assert!(o.places.contains(&1));
        for viewer in [
            Viewer::All,
            Viewer::Public,
            Viewer::Seat(0),
            Viewer::Seat(players - 1),
        ] {
            g.view(viewer).check(players).unwrap();
        }
        lengths += g.snakes().iter().map(|s| s.length()).max().unwrap();
        assert!(g.turns() <= 100);
    }
    assert!(lengths > 90 * 2, "the snakes eat in these games: {lengths}");
}

#[test]
fn the_view_draws_the_wall_the_snakes_and_the_food() {
    let mut g = position((5, 4), &[&[(1, 1), (1, 2)], &[(3, 2)]], Some((4, 0)));
    let v = g.view(Viewer::Seat(0));
    assert_eq!(v.board.cols, 7);
    assert_eq!(v.board.col_labels, ["#", "a", "b", "c", "d", "e", "#"]);
    assert_eq!(v.board.row_labels, ["#", "0", "1", "2", "3", "#"]);
    assert_eq!(
        v.text_lines()[..6],
        [
            "  # a b c d e #",
            "# . . . . . . .",
            "0 . . . . . * .",
            "1 . . 0 . . . .",
            "2 . . a . 1 . .",
            "3 . . . . . . .",
        ]
    );
    assert_eq!(v.lines.len(), 4, "the wall");
    // Nothing is hidden: every viewer is drawn the same view, with no seat's targets.
    for viewer in [Viewer::All, Viewer::Public, Viewer::Seat(1)] {
        assert_eq!(g.view(viewer), v, "{viewer:?}");
    }
    assert!(v.highlights.is_empty());
    // Each seat clicks the cell its own head steps to.
    let clicks = |seat: Seat| -> Vec<Clicks> {
        arbiter_game::legal(&g, seat)
            .iter()
            .filter_map(|m| g.clicks(seat, m))
            .collect()
    };
    assert_eq!(
        clicks(0),
        [[2, 1], [3, 2], [2, 3], [1, 2]].map(|c| Clicks::Cells(vec![c]))
    );
    assert_eq!(
        clicks(1),
        [[4, 2], [5, 3], [4, 4], [3, 3]].map(|c| Clicks::Cells(vec![c]))
    );
    step(&mut g, "ul");
    step(&mut g, "ul");
    let v = g.view(Viewer::All);
    let cross = v.pieces.iter().find(|p| p.shape == Shape::Cross);
    assert_eq!(
        cross.map(|p| (p.at, p.seat)),
        Some(([2, 1], Some(0))),
        "died from here"
    );
    assert!(v
        .text
        .contains(&"seat 0: out in turn 2 (wall), length 2, 1 fruit".to_string()));
    assert_eq!(
        v.text[0],
        "over after 2 turns: seat 1 is the last snake left"
    );
}

#[test]
fn perft_counts_every_joint_move_of_the_living_snakes() {
    let g = game(json!({}), 0);
    assert_eq!((perft(&g, 1), perft(&g, 2)), (16, 256));
    let g4 = game(json!({"players": 4}), 0);
    assert_eq!(perft(&g4, 1), 256);
    // On 4 x 4 the snakes of four start next to each other: heads meet and walls come soon,
    // and the dead stop moving (fewer joint moves below).
    let tight = game(json!({"players": 4, "cols": 4, "rows": 4}), 0);
    assert!(perft(&tight, 2) < 256 * 256);
    // A horizon of one: nothing below the first turn.
    let short = game(json!({"horizon": 1}), 0);
    assert_eq!((perft(&short, 1), perft(&short, 2)), (16, 0));
    assert_eq!(joint_moves(&g).len(), 16);
}

#[test]
fn bad_moves_are_refused_naming_the_seat_and_change_nothing() {
    let mut g = game(json!({"players": 3}), 1);
    g.retire(1);
    let before = (g.tell(0), g.turns());
    let up = Move::from(Dir::Up);
    type Case<'a> = (Vec<(Seat, Move)>, Seat, &'a str);
    let cases: [Case; 4] = [
        (vec![(0, up)], 2, "seat 2's move is missing"),
        (vec![(0, up), (0, up), (2, up)], 0, "seat 0 moves twice"),
        (
            vec![(0, up), (1, up), (2, up)],
            1,
            "seat 1 is out: it has no snake to move",
        ),
        (
            vec![(0, up), (2, up), (7, up)],
            7,
            "seat 7 is not a seat of this game",
        ),
    ];
    for (moves, seat, why) in cases {
        assert_eq!(g.play_together(&moves), Err((seat, why.to_string())));
        assert_eq!((g.tell(0), g.turns()), before);
    }
    assert!(g.play(&up).unwrap_err().contains("simultaneous"));
    let configs = [
        (
            json!({"cols": 3}),
            "cols must be a whole number from 4 to 62",
        ),
        (
            json!({"rows": 63}),
            "rows must be a whole number from 4 to 62",
        ),
        (
            json!({"horizon": 0}),
            "horizon must be a whole number from 1 to 10000",
        ),
        (json!({"players": 5}), "players must be 2, 3 or 4"),
    ];
    for (config, why) in configs {
        assert_eq!(SnakeGame::new(&config, 0).unwrap_err(), why);
    }
}

fn ask(s: &mut Session<SnakeGame>, v: Value) -> Value {
    serde_json::from_slice(&s.call(&serde_json::to_vec(&v).unwrap())).unwrap()
}

#[test]
fn a_turn_is_the_same_whatever_order_the_moves_come_in_and_tells_nothing_before() {
    let mut s = Session::<SnakeGame>::new();
    let info = ask(&mut s, json!({"op": "info"}))["ok"].clone();
    assert_eq!(info["seats"], json!([2, 3, 4]));
    assert_eq!(
        info["kind"],
        json!({"chance": true, "hidden": false, "simultaneous": true})
    );
    let new = json!({"op": "new", "config": {"players": 4}, "seed": 8});
    let a = ask(&mut s, new.clone())["ok"]["state"].clone();
    let b = ask(&mut s, new)["ok"]["state"].clone();
    let moves = [(0, "right"), (1, "down"), (2, "up"), (3, "left")];
    let mut back = moves;
    back.reverse();
    let played = ask(&mut s, json!({"op": "play", "state": a, "moves": moves}));
    assert_eq!(played, json!({"ok": null}));
    let played = ask(&mut s, json!({"op": "play", "state": b, "moves": back}));
    assert_eq!(played, json!({"ok": null}));
    for seat in 0..4 {
        let tell = |s: &mut Session<SnakeGame>, st: &Value| {
            ask(s, json!({"op": "tell", "state": st, "seat": seat}))
        };
        assert_eq!(tell(&mut s, &a), tell(&mut s, &b));
    }
    let clicks = ask(&mut s, json!({"op": "clicks", "state": a, "seat": 3}));
    // Seat 3's head went from (8, 8) to (7, 8): up is (7, 7), drawn one in from the wall.
    assert_eq!(clicks["ok"][0], json!({"move": "up", "cells": [[8, 8]]}));
    let out = ask(&mut s, json!({"op": "playout", "state": a, "seed": 2}));
    let places = out["ok"]["status"]["outcome"]["places"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(places, 4, "{out}");
    // Before a turn each seat is told one thing, whatever the others then choose; every move
    // is told to every seat once played (nothing is hidden).
    let g = game(json!({"players": 3}), 4);
    for seat in 0..3 {
        let told = g.tell(seat);
        for joint in joint_moves(&g) {
            let mut next = g.clone();
            next.play_together(&joint).unwrap();
            assert_eq!(g.tell(seat), told);
            for (by, mv) in &joint {
                assert_eq!(
                    g.reveal(*by, mv, Viewer::Seat(seat)),
                    Some(g.format_move(mv))
                );
            }
        }
    }
}
