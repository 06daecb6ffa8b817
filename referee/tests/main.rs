//! Every integration test of `arbiter` in one binary, each file of this folder a module: the
//! crate is linked once, not once per file (36 binaries did: minutes of linking in a test run,
//! and gigabytes that filled CI's disk). One file's tests:
//! `cargo test -p arbiter --test referee FILE::`.

mod contest_support;
mod dist_support;
#[path = "../../queue/tests/support/faults.rs"]
mod faults;
mod kit_support;
mod tournament_support;

mod bounds;
mod carried_games;
mod cli;
mod contest_db_full;
mod contest_demo;
mod contest_demo_module;
mod contest_faults;
mod contest_init_bots;
mod contest_ladder;
mod contest_leagues;
mod contest_restart;
mod contest_tables;
mod contest_workers;
mod failures;
mod game_builtin;
mod game_kit;
mod hostile;
mod kit_games;
mod live;
mod live_seats;
mod match_stall;
mod player_dist;
mod protocols;
mod renju_sample_bots;
mod saiblo_consistency;
mod saiblo_judge;
mod saiblo_logic;
mod saiblo_public_judger;
mod saiblo_seats;
mod sample_bots;
mod shapes;
mod sprt;
mod tournament_demo;
mod tournament_faults;
mod tournament_module;
mod tournament_run;
mod tournament_stages;
mod tournament_tables;
mod tournament_workers;
