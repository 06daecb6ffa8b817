//! The web player a site embeds: `--player FILE` when given, else the one every arbiter binary
//! carries, `www/dist/player.html` (checked in, kept in step with its sources by
//! scripts/player-dist.sh and the test referee/tests/player_dist.rs). So an installed arbiter
//! has its player in any directory. A player built by scripts/build-web.sh into target/www is
//! not picked up by itself: a stale one there would hide the carried one; name it with
//! `--player target/www/player.html` to try it.

use std::path::Path;

use anyhow::Context;

/// The player built into this binary.
pub const EMBEDDED: &str = include_str!("../../www/dist/player.html");

/// The largest player file read from disk.
const MAX_BYTES: u64 = 16 << 20;

/// The player's page, and where it came from (for messages).
pub fn load(explicit: Option<&Path>) -> anyhow::Result<(String, String)> {
    let Some(path) = explicit else {
        return Ok((EMBEDDED.to_string(), "built in".into()));
    };
    let limit = arbiter_match::input::Limit {
        bytes: MAX_BYTES,
        what: "the web player",
    };
    let text = arbiter_match::input::read_text(path, limit)
        .with_context(|| format!("cannot read the web player {}", path.display()))?;
    Ok((text, path.display().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_player_is_a_whole_page() {
        assert!(EMBEDDED.starts_with("<!") || EMBEDDED.starts_with("<html"));
        assert!(EMBEDDED.trim_end().ends_with("</html>"));
        // Every marker of the template (@WASM_LZMA_BASE64@, @WASM_SIZE@) was filled in.
        assert!(!EMBEDDED.contains("@WASM_"));
    }

    #[test]
    fn a_named_player_that_is_missing_is_an_error() {
        let err = load(Some(Path::new("/nonexistent/player.html"))).expect_err("missing");
        assert!(format!("{err:#}").contains("/nonexistent/player.html"));
    }
}
