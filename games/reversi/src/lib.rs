//! The module of arbiter's built-in Reversi (even sizes 4 to 16): the rules are the engine's, through
//! [`game_builtin::Reversi`]; this crate only exports them (one game per module).

pub use game_builtin::Reversi;

arbiter_game::export_game!(game_builtin::Reversi);
