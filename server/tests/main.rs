//! Every integration test of `arbiter-server` in one binary, each file of this folder a module: the
//! crate is linked once, not once per file (6 binaries did: minutes of linking in a test run,
//! and gigabytes that filled CI's disk). One file's tests:
//! `cargo test -p arbiter-server --test server FILE::`.

mod support;

mod contest;
mod contest_module;
mod first_day;
mod hardening;
mod i18n;
mod protocol_pages;
mod similarity;
mod student_words;
mod test_games;
