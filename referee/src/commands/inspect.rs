//! `arbiter inspect`: a position after some moves, for people (`--json` for programs).

use std::process::ExitCode;

use anyhow::anyhow;
use arbiter_engine::any::AnyGame;

use super::{game_config, split_moves};
use crate::cli::InspectArgs;
use crate::text;

pub fn run(a: &InspectArgs) -> anyhow::Result<ExitCode> {
    let config = game_config(&a.game)?;
    let mut game = AnyGame::new(&config)?;
    for (i, mv) in split_moves(&a.moves).into_iter().enumerate() {
        game.play_text(mv)
            .map_err(|e| anyhow!("move {} ({mv}): {e}", i + 1))?;
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&text::position_json(&game))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", text::board_picture(&game));
    println!("{}", text::status_line(&game));
    let scores = game.scores();
    println!("scores: {} {}", scores[0], scores[1]);
    let legal: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.format_move(m))
        .collect();
    if !legal.is_empty() {
        println!("legal moves ({}): {}", legal.len(), legal.join(" "));
    }
    if let AnyGame::Gomoku(g) = &game {
        let forbidden = g.forbidden_points();
        if !forbidden.is_empty() {
            let list: Vec<String> = forbidden
                .iter()
                .map(|(p, k)| format!("{} {}", arbiter_engine::Game::format_move(g, *p), k))
                .collect();
            println!("forbidden for black ({}): {}", list.len(), list.join(", "));
        }
    }
    if let AnyGame::Duel2048(g) = &game {
        use arbiter_engine::Seat;
        println!(
            "round {}; random cells: first {:?}, second {:?}",
            g.round(),
            g.next_cell(Seat::FIRST),
            g.next_cell(Seat::SECOND)
        );
    }
    Ok(ExitCode::SUCCESS)
}
