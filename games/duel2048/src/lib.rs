//! The module of arbiter's built-in 2048 duel (seed 000): the rules are the engine's, through
//! [`game_builtin::Duel2048`]; this crate only exports them (one game per module).

pub use game_builtin::Duel2048;

arbiter_game::export_game!(game_builtin::Duel2048);
