//! The `arbiter` referee as a library: the command line, text output, bot processes and their
//! containment, protocols, matches and (as they land) tournaments.

pub mod builtin;
pub mod cli;
pub mod commands;
pub mod game;
pub mod process;
pub mod protocol;
pub mod saiblo;
pub mod series;
pub mod text;
pub mod tournament;
