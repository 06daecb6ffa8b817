//! The engine's results in the kit's terms and in words: outcomes, the status line under a
//! view, seat names. The words are the English of the built-in player (`i18n/en/player.ftl`),
//! so a game reads the same through the kit as in `arbiter replay show`.

use arbiter_engine::{EndReason, Seat};
use arbiter_game::Outcome;

/// Seat names: the colours of Reversi and Gomoku.
pub(crate) const COLOURS: [&str; 2] = ["black", "white"];
/// Seat names of the 2048 duel.
pub(crate) const PLAYERS: [&str; 2] = ["first", "second"];

/// `Black`, from `black`.
pub(crate) fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// A 2048 tile's number: `64` for level 6; `2^50` where the number would be too long to read.
pub(crate) fn tile_value(level: u8) -> String {
    if level < 40 {
        (1u64 << level).to_string()
    } else {
        format!("2^{level}")
    }
}

/// Why a game ended, as the built-in player says it.
pub(crate) fn end_reason(r: &EndReason) -> String {
    match r {
        EndReason::NoMoves { discs } => {
            format!("no moves left, discs {} to {}", discs[0], discs[1])
        }
        EndReason::Five => "five in a row".into(),
        EndReason::BoardFull => "board full".into(),
        EndReason::Levels {
            level: Some(l),
            counts,
        } => format!(
            "decided at {}: {} tiles to {}",
            tile_value(*l),
            counts[0],
            counts[1]
        ),
        EndReason::Levels { level: None, .. } => "all tiles equal".into(),
        // Never an engine game's reason: modules say theirs in their own words.
        EndReason::Module => "by the game's rules".into(),
    }
}

/// The engine's outcome in the kit's terms; the final scores are the engine's running scores
/// (discs, stones, tile sums), as replays show them.
pub(crate) fn outcome(o: &arbiter_engine::Outcome, scores: [i64; 2]) -> Outcome {
    Outcome::decided(
        o.winner.map(Seat::index),
        scores.to_vec(),
        &end_reason(&o.reason),
    )
}

/// The line that says whose turn it is, or how the game ended: `Black to move`, `White must
/// pass`, `Game over: black wins, five in a row`. `forced` is the forced ply's notation.
pub(crate) fn status(
    names: [&str; 2],
    to_move: Option<Seat>,
    forced: Option<String>,
    end: Option<&arbiter_engine::Outcome>,
) -> String {
    match (end, to_move) {
        (Some(o), _) => {
            let who = o.winner.map_or_else(
                || "a draw".to_string(),
                |s| format!("{} wins", names[s.index()]),
            );
            format!("Game over: {who}, {}", end_reason(&o.reason))
        }
        (None, Some(s)) => match forced {
            Some(m) => format!("{} must {m}", capital(names[s.index()])),
            None => format!("{} to move", capital(names[s.index()])),
        },
        (None, None) => String::from("Game over"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_read_as_the_player_says_them() {
        let r = EndReason::Levels {
            level: Some(6),
            counts: [2, 1],
        };
        assert_eq!(end_reason(&r), "decided at 64: 2 tiles to 1");
        assert_eq!(tile_value(41), "2^41");
        let o = arbiter_engine::Outcome {
            winner: Some(Seat::SECOND),
            reason: EndReason::Five,
        };
        assert_eq!(
            status(COLOURS, None, None, Some(&o)),
            "Game over: white wins, five in a row"
        );
        let forced = Some("pass".to_string());
        assert_eq!(
            status(COLOURS, Some(Seat::FIRST), forced, None),
            "Black must pass"
        );
    }
}
