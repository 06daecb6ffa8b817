//! The `arbiter` referee as a library: the command line, text output, and (as they land) the
//! bot processes, protocols, matches and tournaments.

pub mod builtin;
pub mod cli;
pub mod commands;
pub mod text;
