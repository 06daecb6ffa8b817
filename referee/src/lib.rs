//! The `arbiter` command line: one subcommand per job, over the library crates
//! (`arbiter-engine`, `arbiter-sandbox`, `arbiter-match`, `arbiter-sparring`,
//! `arbiter-tournament`, `arbiter-saiblo`).

pub mod carried;
pub mod cli;
pub mod commands;
pub mod text;
