//! The shipped opening suites: each line is legal through the engine and leaves the game open,
//! no line repeats, and the generator writes exactly the files that are shipped.

use std::collections::HashSet;
use std::path::Path;

use arbiter_sparring::openings::{file_text, generate, suites};

fn shipped(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../openings")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_shipped_opening_is_legal_through_the_engine() {
    for suite in suites() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../openings")
            .join(suite.file);
        let openings = arbiter_match::spec::read_openings(&path, &suite.config)
            .unwrap_or_else(|e| panic!("{}: {e:#}", suite.file));
        assert_eq!(openings.len(), suite.count, "{}", suite.file);
        assert!(openings.iter().all(|o| o.len() == suite.plies));
        let distinct: HashSet<_> = openings.iter().collect();
        assert_eq!(
            distinct.len(),
            openings.len(),
            "{} repeats a line",
            suite.file
        );
        // The SPRT's embedded copy reads the same.
        let embedded =
            arbiter_match::sprt::shipped_openings(&suite.config).expect("every suite is embedded");
        let parsed =
            arbiter_match::sprt::parse_openings(embedded.0, embedded.1, &suite.config).unwrap();
        assert_eq!(parsed, openings);
    }
}

#[test]
fn the_generator_reproduces_the_shipped_files() {
    for suite in suites() {
        let lines = generate(&suite).unwrap();
        assert_eq!(
            file_text(&suite, &lines),
            shipped(suite.file),
            "{}: run the generator (docs/openings.md)",
            suite.file
        );
    }
}
