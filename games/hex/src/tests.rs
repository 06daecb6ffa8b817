use super::*;
use arbiter_game::perft;
use serde_json::json;

fn game(config: Json) -> Hex {
    Hex::new(&config, 0).unwrap()
}

fn play(g: &mut Hex, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap();
        g.play(&mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn perft_counts_every_ordering_until_a_chain_can_exist() {
    // No chain joins two sides before first's n-th stone (ply 2n - 1): until then every
    // ordering of distinct empty hexagons is a line of play.
    let g = game(json!({}));
    let counts: Vec<u64> = (1..=3).map(|d| perft(&g, d)).collect();
    assert_eq!(counts, [121, 121 * 120, 121 * 120 * 119]);
    // 2 x 2: first wins at ply 3 with two stones in one column or on the short diagonal.
    // Of the 4 * 3 * 2 = 24 three-ply lines, first's pair is one of the 6 pairs of hexagons;
    // 3 of those pairs join top and bottom ({a1,a2}, {b1,b2}, {b1,a2}): 12 lines end there.
    let g = game(json!({"size": 2}));
    assert_eq!(perft(&g, 3), 24);
    assert_eq!(perft(&g, 4), 12);
    // With the swap, second's first ply has one more move.
    let g = game(json!({"swap": true}));
    assert_eq!(perft(&g, 2), 121 * 121);
}

#[test]
fn first_joins_top_and_bottom_second_left_and_right() {
    let mut g = game(json!({"size": 7}));
    play(&mut g, "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5 a6 b6");
    assert!(g.outcome().is_none());
    play(&mut g, "a7");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner(), o.reason.as_str()),
        (Some(0), "first joined top and bottom")
    );
    assert_eq!(g.turn().seat(), None);
    assert_eq!(g.play(&Move::Stone(48)), Err("the game is over".into()));
    // Second along the short diagonal's neighbours: a3, b2, c1 touch in turn.
    let mut g = game(json!({"size": 3}));
    play(&mut g, "a1 a3 a2 b2 b1 c1");
    assert_eq!(g.outcome().unwrap().winner(), Some(1));
    let view = g.view(Viewer::All);
    let won: Vec<[u16; 2]> = view
        .highlights
        .iter()
        .filter(|h| h.mark == Mark::Win)
        .map(|h| h.at)
        .collect();
    assert_eq!(won.len(), 3, "the winning chain is marked: {won:?}");
    for at in [[0, 2], [1, 1], [2, 0]] {
        assert!(won.contains(&at), "{at:?} in {won:?}");
    }
}

#[test]
fn a1_and_b2_do_not_touch_but_b1_and_a2_do() {
    // The rhombus's short diagonal runs from top right to bottom left.
    let mut g = game(json!({"size": 2}));
    play(&mut g, "a1 a2 b2");
    assert!(
        g.outcome().is_none(),
        "a1-b2 is the long diagonal: not joined"
    );
    let mut g = game(json!({"size": 2}));
    play(&mut g, "b1 a1 a2");
    assert_eq!(g.outcome().unwrap().winner(), Some(0));
}

#[test]
fn the_swap_takes_first_stone_mirrored_and_only_as_second_first_move() {
    let mut g = game(json!({"size": 5, "swap": true}));
    play(&mut g, "b1");
    let mut moves = Vec::new();
    g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
    assert!(moves.contains(&Move::Swap));
    assert_eq!(
        g.clicks(g.turn().seat().unwrap_or(0), &Move::Swap),
        Some(Clicks::Cells(vec![[1, 0]]))
    );
    arbiter_game::check_clicks(&g).unwrap();
    play(&mut g, "swap");
    // b1 (col 1, row 0) mirrored is a2 (col 0, row 1), now second's; first to move again.
    assert_eq!(g.tell(0).lines().nth(2), Some("2...."));
    assert_eq!(g.tell(0).lines().nth(1), Some("....."));
    assert_eq!(g.turn().seat(), Some(0));
    let mut moves = Vec::new();
    g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
    assert!(!moves.contains(&Move::Swap));
    assert!(g.play(&Move::Swap).is_err());
    assert!(g.view(Viewer::All).check(2).is_ok());
    // Without the swap in the config there is no swap.
    let mut g = game(json!({"size": 5}));
    play(&mut g, "b1");
    assert_eq!(
        g.play(&Move::Swap),
        Err("swap is only second's first move".into())
    );
}

#[test]
fn bad_moves_and_configs_are_refused_saying_what() {
    let mut g = game(json!({}));
    play(&mut g, "f6");
    assert_eq!(
        g.play(&g.parse_move("f6").unwrap()),
        Err("f6 is taken".into())
    );
    assert!(g.parse_move("l1").unwrap_err().contains("a1 to k11"));
    assert!(g.parse_move("a12").is_err());
    assert!(g.parse_move("").is_err());
    assert!(Hex::new(&json!({"size": 20}), 0).is_err());
    assert!(Hex::new(&json!({"size": 1}), 0).is_err());
    assert!(Hex::new(&json!({"swap": "yes"}), 0).is_err());
}

#[test]
fn random_games_end_with_exactly_one_winner_and_a_valid_view() {
    let mut x: u64 = 12345;
    for size in [2, 5, 11] {
        for _ in 0..50 {
            let mut g = game(json!({"size": size, "swap": true}));
            while g.turn().seat().is_some() {
                let mut moves = Vec::new();
                g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
                assert!(!moves.is_empty(), "no moves and no winner");
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = moves[(x >> 33) as usize % moves.len()];
                let text = g.format_move(&m);
                assert_eq!(g.parse_move(&text), Ok(m));
                g.play(&m).unwrap();
            }
            let v = g.view(Viewer::All);
            assert!(v.check(2).is_ok());
            assert!(v.highlights.iter().any(|h| h.mark == Mark::Win));
        }
    }
}
