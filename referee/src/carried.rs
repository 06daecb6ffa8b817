//! The game modules the binary carries (games/dist, built by scripts/games-dist.sh): the proof
//! games by name, so that an installed arbiter plays `arbiter match amazons ...` and starts
//! `arbiter contest init c --game amazons` with no checkout. A command that names one gets the
//! path of its copy on disk, written once per machine under the user's cache directory (by the
//! module's sha256, so two versions never share a file), since every module command reads a
//! file.

use std::path::{Path, PathBuf};

use anyhow::Context;
use sha2::{Digest, Sha256};

/// A carried game: its name (the module's own) and its bytes.
pub struct Carried {
    pub name: &'static str,
    pub bytes: &'static [u8],
    /// What it is, in a line, for `arbiter game list`.
    pub about: &'static str,
}

macro_rules! carried {
    ($($name:literal: $about:literal),* $(,)?) => {
        &[$(Carried {
            name: $name,
            bytes: include_bytes!(concat!("../../games/dist/", $name, ".wasm")),
            about: $about,
        }),*]
    };
}

/// Every carried game, in the order `arbiter game list` shows them.
pub const GAMES: &[Carried] = carried![
    "amazons": "Amazons, 10 x 10 (2 seats)",
    "connect-four": "Connect Four, 7 x 6 by default (2 seats)",
    "connect6": "Connect6, 19 x 19 by default (2 seats)",
    "dots-and-boxes": "Dots and Boxes (2 seats)",
    "einstein": "EinStein wuerfelt nicht, with a die (2 seats)",
    "hex": "Hex, 11 x 11 by default (2 seats)",
    "chinese-checkers": "Chinese Checkers (2, 3, 4 or 6 seats)",
    "goofspiel": "Goofspiel, sealed bids (2 to 4 seats, simultaneous)",
    "snake": "Snake (2 to 4 snakes moving at once)",
    "dou-dizhu": "Dou Dizhu / Fight the Landlord (3 seats, hidden hands)",
];

/// The carried game of this name.
pub fn find(name: &str) -> Option<&'static Carried> {
    GAMES.iter().find(|g| g.name == name)
}

/// The path of a carried game's module on this machine, written there first if missing.
pub fn path_of(game: &Carried) -> anyhow::Result<PathBuf> {
    let sha: String = Sha256::digest(game.bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = cache_dir().join("games");
    let path = dir.join(format!("{}-{sha}.wasm", game.name));
    // The one module reader: what is there may be anything (a named pipe there would hang a
    // plain read for ever); only the carried bytes themselves are taken.
    if arbiter_kit_host::module_file::read(&path).is_ok_and(|there| there == game.bytes) {
        return Ok(path);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Written aside and renamed over whatever is there: two commands starting at once never
    // read half a module. The part file is made new (never through a link left in its place).
    let part = dir.join(format!(".{}-{sha}.{}.part", game.name, std::process::id()));
    let _ = std::fs::remove_file(&part);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&part)
        .and_then(|mut f| std::io::Write::write_all(&mut f, game.bytes))
        .with_context(|| format!("cannot write {}", part.display()))?;
    std::fs::rename(&part, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// `$XDG_CACHE_HOME/arbiter`, else `~/.cache/arbiter`, else the temporary directory's.
fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| Path::new(v).is_absolute())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("arbiter")
}

/// A game as a command names it: a carried game's name becomes its module's path; anything
/// else (a built-in game, a module file) is kept as given.
pub fn resolve(game: &str) -> anyhow::Result<String> {
    match find(game) {
        Some(g) => Ok(path_of(g)?.display().to_string()),
        None => Ok(game.to_string()),
    }
}
