use super::*;
use arbiter_game::perft;
use serde_json::json;

fn start(seed: u64) -> Einstein {
    Einstein::new(&json!({}), seed).unwrap()
}

fn index(sq: &str) -> usize {
    let (c, r) = parse_square(sq, N, N).unwrap();
    r * N + c
}

/// A position with the given cubes (number, square) where `seat` is to move and the die shows
/// `roll`: the seed is searched for one that rolls it at this ply.
fn position(first: &[(u8, &str)], second: &[(u8, &str)], seat: Seat, roll: u8) -> Einstein {
    let mut g = start(0);
    g.cells = [0; N * N];
    for (s, cubes) in [first, second].into_iter().enumerate() {
        for &(cube, sq) in cubes {
            g.cells[index(sq)] = s as u8 * 6 + cube;
        }
    }
    g.seat = seat;
    g.plies = seat as u64;
    g.seed = (0..1000).find(|&s| die(s, g.plies) == roll).unwrap();
    assert_eq!(g.roll(), roll);
    g
}

fn legal(g: &Einstein) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
    moves.iter().map(|m| g.format_move(m)).collect()
}

fn play(g: &mut Einstein, text: &str) -> Result<(), String> {
    let mv = g.parse_move(text)?;
    g.play(&mv)
}

#[test]
fn the_start_and_the_notation() {
    let g = start(0);
    assert_eq!(
        g.tell(0),
        format!(
            "DIE {}\nFIRST 1:a5 2:b5 3:c5 4:a4 5:b4 6:a3\nSECOND 1:e1 2:d1 3:c1 4:e2 5:d2 6:e3",
            die(0, 0)
        )
    );
    for m in legal(&g) {
        let mv = g.parse_move(&m).unwrap();
        assert_eq!(g.format_move(&mv), m);
    }
    for bad in [
        "", "3", "3c4", "7:a1", "0:a1", "3:f1", "3:a6", "33:a1", "3:a1x", ":a1",
    ] {
        assert!(g.parse_move(bad).is_err(), "{bad:?}");
    }
    assert_eq!(g.parse_move(" 3:c4\n"), Ok(Move { cube: 3, to: 17 }));
}

#[test]
fn the_rolled_cube_moves_when_it_is_there() {
    let g = position(&[(2, "b4"), (3, "c3"), (5, "a1")], &[(1, "e1")], 0, 3);
    assert_eq!(g.movable(), [3]);
    assert_eq!(legal(&g), ["3:d3", "3:c2", "3:d2"]);
    let mut h = g.clone();
    let e = play(&mut h, "2:c4").unwrap_err();
    assert_eq!(e, "the die shows 3: move cube 3");
    assert_eq!(h.cells, g.cells, "a refused move changes nothing");
    assert_eq!(play(&mut h, "6:a2").unwrap_err(), "first has no cube 6");
    assert_eq!(
        play(&mut h, "3:b3").unwrap_err(),
        "cube 3 on c3 cannot step to b3"
    );
}

#[test]
fn a_missing_cube_passes_the_turn_to_the_nearest_higher_or_lower() {
    // Second's cube 3 is gone: 2 or 5 (not 1, 6: only the nearest either way).
    let second = [(1, "e5"), (2, "c3"), (5, "d4"), (6, "b1")];
    let g = position(&[(1, "a5")], &second, 1, 3);
    assert_eq!(g.movable(), [2, 5]);
    assert_eq!(legal(&g), ["2:b3", "2:c4", "2:b4", "5:c4", "5:d5", "5:c5"]);
    let mut h = g.clone();
    assert_eq!(
        play(&mut h, "6:a1").unwrap_err(),
        "the die shows 3: move cube 2 or 5"
    );
    // At the ends of the numbers there is one side only.
    let g = position(&[(3, "c3"), (4, "b2")], &[(1, "e1")], 0, 1);
    assert_eq!(g.movable(), [3]);
    let g = position(&[(3, "c3"), (4, "b2")], &[(1, "e1")], 0, 6);
    assert_eq!(g.movable(), [4]);
    // A lone cube moves whatever the die shows.
    for roll in 1..=6 {
        let g = position(&[(4, "c3")], &[(1, "e5")], 0, roll);
        assert_eq!(g.movable(), [4]);
    }
}

#[test]
fn a_step_captures_any_cube_even_ones_own() {
    let mut g = position(&[(1, "b4"), (2, "c4")], &[(3, "b3"), (4, "e5")], 0, 1);
    play(&mut g, "1:c4").unwrap();
    assert_eq!(g.find(0, 2), None, "own cube 2 captured");
    assert_eq!(g.find(0, 1), Some(index("c4")));
    assert!(g.outcome().is_none());
    let mut g = position(&[(1, "b4"), (2, "c4")], &[(3, "b3"), (4, "e5")], 0, 1);
    play(&mut g, "1:b3").unwrap();
    assert_eq!(g.find(1, 3), None, "second's cube 3 captured");
    assert_eq!(g.turn().seat(), Some(1));
    assert_eq!(g.tell(1).lines().nth(2), Some("SECOND 4:e5"));
    // Second steps left, up and diagonally up-left, and captures too.
    let mut g = position(&[(2, "b4")], &[(3, "c3"), (5, "a1")], 1, 3);
    assert_eq!(legal(&g), ["3:b3", "3:c4", "3:b4"]);
    play(&mut g, "3:b4").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner(), o.reason.as_str()),
        (Some(1), "second captured every opposing cube")
    );
}

#[test]
fn reaching_the_far_corner_wins() {
    let mut g = position(&[(4, "d2")], &[(1, "a2"), (2, "b2")], 0, 4);
    play(&mut g, "4:e1").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner(), o.reason.as_str(), o.scores),
        (Some(0), "first reached the far corner", vec![1, 0])
    );
    assert_eq!(g.turn().seat(), None);
    assert!(legal(&g).is_empty());
    assert_eq!(play(&mut g, "1:a3"), Err("the game is over".into()));
    assert!(!g.tell(1).contains("DIE"), "no die once over");
    assert!(g.view(Viewer::All).check(2).is_ok());
    let mut g = position(&[(1, "e5")], &[(6, "b4")], 1, 2);
    play(&mut g, "6:a5").unwrap();
    assert_eq!(g.outcome().map(|o| o.winner()), Some(Some(1)));
    // The far corner, not the own one: first's corner a5 wins nothing for first.
    let g = position(&[(1, "a5")], &[(1, "e1")], 0, 1);
    assert!(g.outcome().is_none());
}

#[test]
fn the_dice_follow_the_seed_only() {
    // SplitMix64 seeded with 0: its first outputs are published; the die is 1 + output % 6.
    assert_eq!(mix(GOLDEN), 0xE220_A839_7B1D_CDAF);
    assert_eq!(die(0, 0), (0xE220_A839_7B1D_CDAFu64 % 6) as u8 + 1);
    let rolls = |seed| (0..12).map(|p| die(seed, p)).collect::<Vec<_>>();
    assert_eq!(rolls(0), [2, 1, 2, 5, 2, 1, 6, 3, 6, 3, 2, 5]);
    assert_ne!(rolls(0), rolls(1));
    // The same seed and the same moves give the same game, rolls and all; a game's rolls do
    // not depend on the moves.
    let playout = |seed, pick: usize| {
        let mut g = start(seed);
        let mut seen = Vec::new();
        while g.turn().seat().is_some() {
            seen.push(g.tell(g.seat));
            let moves = legal(&g);
            play(&mut g, &moves[seen.len() * pick % moves.len()]).unwrap();
        }
        (seen, g.outcome())
    };
    assert_eq!(playout(5, 1), playout(5, 1));
    assert_ne!(playout(5, 1), playout(6, 1));
    let (a, b) = (playout(5, 1).0, playout(5, 2).0);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.lines().next(), y.lines().next(), "same ply, same die");
    }
}

#[test]
fn configs_set_or_draw_the_arrangement() {
    let g = Einstein::new(&json!({"first": [6, 5, 4, 3, 2, 1]}), 0).unwrap();
    assert!(g.tell(0).contains("FIRST 1:a3 2:b4 3:a4 4:c5 5:b5 6:a5"));
    assert!(g.tell(0).contains("SECOND 1:e1 2:d1"));
    let drawn = |seed| Einstein::new(&json!({"arrangement": "seed"}), seed).unwrap();
    assert_eq!(drawn(3).cells, drawn(3).cells);
    assert!((0..20).any(|s| drawn(s).cells != start(s).cells));
    assert_eq!(
        drawn(3).roll(),
        start(3).roll(),
        "the draw leaves the dice alone"
    );
    let given = Einstein::new(
        &json!({"arrangement": "seed", "second": [1, 2, 3, 4, 5, 6]}),
        3,
    )
    .unwrap();
    assert_eq!(given.cells[..5], start(3).cells[..5], "second as given");
    for bad in [
        json!({"first": [1, 2, 3, 4, 5]}),
        json!({"first": [1, 2, 3, 4, 5, 5]}),
        json!({"first": [0, 1, 2, 3, 4, 5]}),
        json!({"second": "123456"}),
        json!({"first": [1, 2, 3, 4, 5, -6]}),
        json!({"arrangement": "random"}),
        json!({"arrangement": 1}),
    ] {
        assert!(Einstein::new(&bad, 0).is_err(), "{bad}");
    }
}

#[test]
fn the_view_shows_the_die_and_the_cubes() {
    let mut g = start(0);
    let v = g.view(Viewer::All);
    assert!(v.check(2).is_ok());
    assert_eq!(v.pieces.len(), 12);
    assert_eq!(v.text, ["die: 2 for first (moves cube 2)"]);
    assert_eq!(
        v.highlights
            .iter()
            .filter(|h| h.mark == Mark::Target)
            .count(),
        3
    );
    play(&mut g, "2:c4").unwrap();
    let v = g.view(Viewer::All);
    assert_eq!(
        v.text,
        [
            "first rolled 2 and played 2:c4",
            "die: 1 for second (moves cube 1)"
        ]
    );
    let c1 = &v.pieces[0];
    assert_eq!(
        (c1.at, c1.seat, c1.label.as_deref()),
        ([2, 4], Some(1), Some("3"))
    );
}

/// A second, independent implementation of the rules (another board layout, the die from a
/// running SplitMix64 rather than [`die`]), to count the move tree against the crate's.
mod brute {
    /// `board[row][col]`, row 0 at the top: `+n` first's cube n, `-n` second's.
    pub type Board = [[i8; 5]; 5];

    pub fn start() -> Board {
        let mut b = [[0; 5]; 5];
        let first = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)];
        for (n, (r, c)) in first.into_iter().enumerate() {
            b[r][c] = n as i8 + 1;
            b[4 - r][4 - c] = -(n as i8 + 1);
        }
        b
    }

    fn rolls(seed: u64, plies: usize) -> Vec<i8> {
        let mut state = seed;
        (0..plies)
            .map(|_| {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                (z % 6) as i8 + 1
            })
            .collect()
    }

    pub fn perft(seed: u64, depth: usize) -> u64 {
        walk(&start(), &rolls(seed, depth), 0, depth)
    }

    fn walk(b: &Board, rolls: &[i8], ply: usize, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let side: i8 = if ply % 2 == 0 { 1 } else { -1 };
        let find = |n: i8| {
            (0..25)
                .map(|i| (i / 5, i % 5))
                .find(|&(r, c)| b[r][c] == side * n)
        };
        let r = rolls[ply];
        let choices: Vec<i8> = if find(r).is_some() {
            vec![r]
        } else {
            let down = (1..r).rev().find(|&n| find(n).is_some());
            let up = (r + 1..=6).find(|&n| find(n).is_some());
            down.into_iter().chain(up).collect()
        };
        let dirs: [(i32, i32); 3] = if side > 0 {
            [(0, 1), (1, 0), (1, 1)]
        } else {
            [(0, -1), (-1, 0), (-1, -1)]
        };
        let mut count = 0;
        for n in choices {
            let Some((r0, c0)) = find(n) else { continue };
            for (dr, dc) in dirs {
                let (r1, c1) = (r0 as i32 + dr, c0 as i32 + dc);
                if !(0..5).contains(&r1) || !(0..5).contains(&c1) {
                    continue;
                }
                let (r1, c1) = (r1 as usize, c1 as usize);
                let mut next = *b;
                next[r1][c1] = side * n;
                next[r0][c0] = 0;
                let corner = if side > 0 { (4, 4) } else { (0, 0) };
                let foes_left = next.iter().flatten().any(|&v| v * side < 0);
                if (r1, c1) == corner || !foes_left {
                    count += u64::from(depth == 1);
                } else {
                    count += walk(&next, rolls, ply + 1, depth - 1);
                }
            }
        }
        count
    }
}

const DEPTH: u32 = 11;

#[test]
fn perft_matches_an_independent_enumerator() {
    for seed in [0, 1] {
        let ours: Vec<u64> = (1..=DEPTH).map(|d| perft(&start(seed), d)).collect();
        let theirs: Vec<u64> = (1..=DEPTH)
            .map(|d| brute::perft(seed, d as usize))
            .collect();
        assert_eq!(ours, theirs, "seed {seed}");
        println!("seed {seed}: {ours:?}");
    }
    // Published in docs/games/einstein.md (seed 0, `arbiter game perft` 's default).
    let ours: Vec<u64> = (1..=DEPTH).map(|d| perft(&start(0), d)).collect();
    assert_eq!(
        ours,
        [3, 9, 27, 108, 354, 1062, 3186, 10746, 32238, 129756, 476073]
    );
}

/// A search's copy (`clone` with a seed) keeps the roll both sides know and rolls the rest
/// from its own seed: it cannot learn the game's future dice.
#[test]
fn a_reseeded_copy_keeps_the_known_roll_and_rolls_its_own_future() {
    let g = start(7);
    let mut copy = g.clone();
    copy.reseed(12345);
    assert_eq!(copy.roll(), g.roll(), "the roll the side to move knows");
    // Play the same plies on both; the later rolls are the copy's own.
    let (mut a, mut b) = (g.clone(), copy);
    let mut differ = false;
    for _ in 0..12 {
        if a.outcome().is_some() || a.roll() != b.roll() {
            differ |= a.roll() != b.roll();
            break;
        }
        let mv = legal(&a)[0].clone();
        play(&mut a, &mv).unwrap();
        play(&mut b, &mv).unwrap();
    }
    assert!(differ, "the copy rolled the game's own dice");
    // Another copy with the same seed rolls the same: the search stays reproducible.
    let (mut c, mut d) = (g.clone(), g.clone());
    c.reseed(99);
    d.reseed(99);
    for _ in 0..6 {
        if c.outcome().is_some() {
            break;
        }
        assert_eq!(c.roll(), d.roll());
        let mv = legal(&c)[0].clone();
        play(&mut c, &mv).unwrap();
        play(&mut d, &mv).unwrap();
    }
}

#[test]
fn a_move_is_two_clicks_the_cube_then_its_square() {
    let g = position(&[(2, "b4"), (3, "c3"), (5, "a1")], &[(1, "e1")], 0, 3);
    let mv = g.parse_move("3:d3").unwrap();
    // c3 is column 2, row 2 from the top of five; d3 is column 3.
    assert_eq!(
        g.clicks(g.turn().seat().unwrap_or(0), &mv),
        Some(Clicks::Cells(vec![[2, 2], [3, 2]]))
    );
    let mut g = start(7);
    for _ in 0..10 {
        if g.turn().seat().is_none() {
            break;
        }
        arbiter_game::check_clicks(&g).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
        g.play(&moves[moves.len() - 1]).unwrap();
    }
}
