//! What the levels promise: a higher level finds what a lower one misses, every level keeps
//! renju black off forbidden points, and a deadline stops a search its caps would let run on.
//! Times are checked against generous bounds only (speed figures are the examples' business).

use std::time::{Duration, Instant};

use arbiter_engine::gomoku::{self, Gomoku, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::{Game, Seat};
use arbiter_sparring::clock::Deadline;
use arbiter_sparring::{gomoku as gomoku_bot, reversi as reversi_bot, Rng};

/// Random legal moves until `empties` squares are left; `None` if the game ends or the side to
/// move must pass there.
fn reversi_to(empties: u32, rng: &mut Rng) -> Option<Reversi> {
    let mut game = Reversi::new(&reversi::Config { size: 8 }).expect("size");
    let filled = |g: &Reversi| g.counts().iter().map(|&c| u32::from(c)).sum::<u32>();
    while 64 - filled(&game) > empties {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.play(rng.pick(&moves)?).expect("legal");
    }
    (game.to_move().is_some() && game.forced_move().is_none()).then_some(game)
}

/// The game's result for `me` with best play (1 won, 0 drawn, -1 lost): alpha-beta over the
/// engine's moves on the result alone, independent of the bots' search.
fn exact(game: &Reversi, me: Seat, mut alpha: i32, mut beta: i32) -> i32 {
    let Some(mover) = game.to_move() else {
        let c = game.counts();
        return (i32::from(c[me.index()]) - i32::from(c[me.other().index()])).signum();
    };
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let maximise = mover == me;
    let mut best = if maximise { -2 } else { 2 };
    for mv in moves {
        let mut child = game.clone();
        child.play(mv).expect("legal");
        let v = exact(&child, me, alpha, beta);
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

fn result_after(game: &Reversi, mv: reversi::Move, me: Seat) -> i32 {
    let mut child = game.clone();
    child.play(mv).expect("legal");
    exact(&child, me, -2, 2)
}

#[test]
fn reversi_level_4_reads_endgames_to_the_end_that_level_3_gets_wrong() {
    // Level 4 searches to the end from 10 empty squares, level 3 from 8.
    let mut rng = Rng::new(44);
    let (mut checked, mut level_3_wrong) = (0, 0);
    while checked < 12 {
        let Some(game) = reversi_to(10, &mut rng) else {
            continue;
        };
        let me = game.to_move().expect("running");
        let best = exact(&game, me, -2, 2);
        // Only positions where some move spoils the result.
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.iter().all(|&mv| result_after(&game, mv, me) == best) {
            continue;
        }
        let four = reversi_bot::choose(&game, 4, &mut rng).expect("a move");
        assert_eq!(result_after(&game, four, me), best, "level 4 in\n{game}");
        let three = reversi_bot::choose(&game, 3, &mut rng).expect("a move");
        if result_after(&game, three, me) < best {
            level_3_wrong += 1;
        }
        checked += 1;
    }
    assert!(
        level_3_wrong > 0,
        "level 3 was right every time: not a test"
    );
}

#[test]
fn renju_black_never_plays_a_forbidden_point_at_any_level() {
    let config = gomoku::Config {
        size: 15,
        rule: Rule::Renju,
    };
    for level in 0..=5u32 {
        // The top levels take longer a move: one game each.
        let games = if level >= 4 { 1 } else { 2 };
        for seed in 0..games {
            let mut rng = Rng::new(seed * 10 + u64::from(level));
            let mut game = Gomoku::new(&config).expect("config");
            // Black at the level, white at level 2 (a game of some length, quickly).
            while let Some(seat) = game.to_move().filter(|_| game.ply() < 60) {
                let depth = match seat {
                    Seat::FIRST => level,
                    _ => 2,
                };
                let p = gomoku_bot::choose(&game, depth, &mut rng).expect("a move");
                if seat == Seat::FIRST {
                    for rule in [Rule::Renju, Rule::RenjuGomocup] {
                        assert!(
                            game.forbidden_kind_under(p, rule).is_none(),
                            "level {level} played {p:?}, forbidden under {}",
                            rule.name()
                        );
                    }
                }
                game.play(p).expect("legal");
            }
        }
    }
}

/// Runs `choose` with a 200 ms deadline and checks it returned well within 2 s.
fn within_deadline<T>(what: &str, choose: impl FnOnce(&Deadline) -> Option<T>) -> T {
    let deadline = Deadline::after(Duration::from_millis(200));
    let start = Instant::now();
    let answer = choose(&deadline).unwrap_or_else(|| panic!("{what}: no move"));
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "{what} took {took:?}");
    answer
}

#[test]
fn a_deadline_stops_searches_that_their_caps_would_let_run_for_minutes() {
    let mut rng = Rng::new(8);
    // Reversi 16 x 16 in the middle game, 30 plies deep.
    let mut game = Reversi::new(&reversi::Config { size: 16 }).expect("size");
    for _ in 0..40 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.play(rng.pick(&moves).expect("a move")).expect("legal");
    }
    let level = reversi_bot::Level {
        depth: 30,
        nodes: u64::MAX,
        solve: 0,
    };
    let mv = within_deadline("reversi", |d| {
        reversi_bot::choose_within(&game, level, &mut rng, d)
    });
    game.play(mv).expect("legal");

    // Gomoku with a crowded centre, 20 plies over 30 points each.
    let mut game = Gomoku::new(&gomoku::Config::default()).expect("config");
    for _ in 0..12 {
        let p = gomoku_bot::choose(&game, 1, &mut rng).expect("a move");
        game.play(p).expect("legal");
    }
    let level = gomoku_bot::Level {
        depth: 20,
        width: 30,
        nodes: u64::MAX,
        vcf: 30,
        leaf_vcf: 6,
        taper: 0,
        answer_four_three: true,
    };
    let p = within_deadline("gomoku", |d| {
        gomoku_bot::choose_within(&game, level, &mut rng, d)
    });
    game.play(p).expect("legal");
}

#[test]
fn without_a_deadline_the_caps_make_moves_repeatable() {
    // The same seed, the same move: what tests and the ladder's re-measure rely on.
    let mut rng = Rng::new(5);
    let mut game = Reversi::new(&reversi::Config { size: 8 }).expect("size");
    for _ in 0..20 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.play(rng.pick(&moves).expect("a move")).expect("legal");
    }
    let a = reversi_bot::choose(&game, 5, &mut Rng::new(1));
    let b = reversi_bot::choose(&game, 5, &mut Rng::new(1));
    assert_eq!(a, b);
}
