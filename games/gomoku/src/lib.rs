//! The module of arbiter's built-in Gomoku (freestyle, standard, renju): the rules are the engine's, through
//! [`game_builtin::Gomoku`]; this crate only exports them (one game per module).

pub use game_builtin::Gomoku;

arbiter_game::export_game!(game_builtin::Gomoku);
