//! Games that come as game-kit modules (docs/game-kit.md): their configuration as replays
//! and configs write it, and the interface through which [`crate::AnyGame`] plays them.
//!
//! The engine cannot run a module itself (it stays pure and `no_std`): a host that can does,
//! behind [`DynRules`]. The referee's host runs modules in wasmi (`arbiter-kit-host`); the web
//! player's runs them in the browser's own wasm engine. A host is given to
//! [`crate::AnyGame::open`], or installed once per process with [`install_host`] (with `std`)
//! so that [`crate::AnyGame::new`] and replays find it.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error::ConfigError;
use crate::game::{Seat, Turn, Viewer};

/// A module as replays name it: what it calls itself, and the sha256 of its bytes (which is
/// what identifies it: a worker fetches it by this hash).
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ModuleRef {
    pub name: String,
    pub version: String,
    pub sha256: String,
}

/// A module game's configuration: `{"name": "module", "module": {...}, "config": {...},
/// "seed": 7}`. All chance comes from the seed, as the 2048 duel's does from its own.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ModuleConfig {
    pub module: ModuleRef,
    /// The module's configuration, a JSON object as text (`{}` for its defaults).
    pub config: String,
    pub seed: u64,
}

impl fmt::Display for ModuleConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.module.name, self.module.version)?;
        if self.config != "{}" {
            write!(f, ", {}", self.config)?;
        }
        Ok(())
    }
}

/// The longest move a module may use, in bytes. A move is one word of its notation
/// (`d1-d7/g7`); keeping it inline keeps [`crate::AnyMove`] a plain value.
pub const MOVE_MAX: usize = 32;

/// A module's move: one word of at most [`MOVE_MAX`] bytes, with no spaces or control
/// characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText {
    len: u8,
    bytes: [u8; MOVE_MAX],
}

impl MoveText {
    /// `None` for a text that is empty, too long, or not one printable word.
    pub fn new(text: &str) -> Option<MoveText> {
        let ok = !text.is_empty()
            && text.len() <= MOVE_MAX
            && text.chars().all(|c| !c.is_whitespace() && !c.is_control());
        if !ok {
            return None;
        }
        let mut bytes = [0; MOVE_MAX];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(MoveText {
            len: text.len() as u8,
            bytes,
        })
    }

    pub fn as_str(&self) -> &str {
        // Built from a &str cut at its own length: always UTF-8.
        core::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("?")
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a module game by its rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ModuleOutcome {
    /// Each seat's place, from 1; seats that tie share the best place of their group.
    pub places: Vec<u32>,
    /// The module's reason in words ("four in a row").
    pub reason: String,
}

impl ModuleOutcome {
    /// The one seat alone in first place, if there is one.
    pub fn winner(&self) -> Option<Seat> {
        winner_of(&self.places)
    }
}

/// The one seat alone in first place of `places`, if there is one.
pub fn winner_of(places: &[u32]) -> Option<Seat> {
    let mut first = places.iter().enumerate().filter(|(_, p)| **p == 1);
    match (first.next(), first.next()) {
        (Some((s, _)), None) => Seat::from_index(s),
        _ => None,
    }
}

/// What a module says of its game's shape.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GameKind {
    /// Chance (dice, deals), drawn from the game's seed.
    pub chance: bool,
    /// Some seat does not see everything: views and reveals depend on the viewer.
    pub hidden: bool,
    /// Some turns are simultaneous.
    pub simultaneous: bool,
}

/// A position of a module game, held by a host. Every call answers from the host's copy; a
/// module that fails (traps, runs out of fuel, answers nonsense) is not called again, and
/// [`DynRules::fault`] says why from then on: the game then reports no side to move, and
/// whoever plays it must treat it as no result, never as a verdict against a bot.
pub trait DynRules: Send + fmt::Debug {
    /// An independent copy of the position.
    fn clone_box(&self) -> Box<dyn DynRules>;
    /// A copy whose chance after the current ply comes from `seed` (a search's copy must not
    /// know the game's own future dice); a game without chance gives a plain copy.
    fn reseeded(&self, seed: u64) -> Box<dyn DynRules>;
    /// A position `seat` cannot tell from this one: what it does not know (other hands, the
    /// stock, future chance) drawn afresh from `seed` (a search for `seat` plays on it).
    fn sampled(&self, seat: Seat, seed: u64) -> Box<dyn DynRules>;
    fn config(&self) -> &ModuleConfig;
    /// The number of seats of this game.
    fn seats(&self) -> usize;
    fn kind(&self) -> GameKind;
    fn turn(&self) -> Turn;
    fn forced_move(&self, seat: Seat) -> Option<MoveText>;
    /// The legal moves of `seat`, a mover of this turn.
    fn legal_moves(&self, seat: Seat) -> Vec<MoveText>;
    /// Plays the move of the one seat to move, or says why not in the module's words
    /// (position unchanged).
    fn play(&mut self, mv: &str) -> Result<(), String>;
    /// Plays a simultaneous turn (one move per mover), or names the seat whose move the module
    /// refused and why (position unchanged).
    fn play_together(&mut self, moves: &[(Seat, MoveText)]) -> Result<(), (Seat, String)>;
    fn outcome(&self) -> Option<ModuleOutcome>;
    fn ply(&self) -> usize;
    fn scores(&self) -> Vec<i64>;
    /// What the seat's bot is told about the position (lines).
    fn tell(&self, seat: Seat) -> String;
    /// The position for the player as `viewer` sees it: the view JSON of docs/game-kit.md.
    fn view(&self, viewer: Viewer) -> String;
    /// What `to` learns of each of `moves` (a ply, in this position, before it is played):
    /// the move's text, another text, or nothing.
    fn reveal(&self, moves: &[(Seat, MoveText)], to: Viewer) -> Vec<Option<String>>;
    /// Takes a failed seat out of a game of three or more and goes on (`true`), or says the
    /// game cannot go on without it (`false`, position unchanged).
    fn retire(&mut self, seat: Seat) -> bool;
    /// Why the module can no longer be trusted, once it failed.
    fn fault(&self) -> Option<String>;
    /// How a person clicks each legal move of `seat`: the ABI's `clicks` answer (JSON), or
    /// `None` when the module does not say (the web player then lists the moves).
    fn clicks(&self, _seat: Seat) -> Option<String> {
        None
    }
    /// Plays uniformly random moves (picked by `seed`) towards the end inside the module, in
    /// one request instead of two a ply: `None` when the module does not offer it. The game
    /// may stop short of its end (the module bounds one request's work); the caller goes on
    /// from there.
    fn random_playout(&mut self, _seed: u64) -> Option<Result<(), String>> {
        None
    }
}

impl Clone for Box<dyn DynRules> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Something that can run game modules.
pub trait ModuleHost: Sync {
    /// The start position of the configured game, or why there is none (module not found
    /// here, config refused, module broken).
    fn open(&self, config: &ModuleConfig) -> Result<Box<dyn DynRules>, ConfigError>;
}

#[cfg(feature = "std")]
static HOST: std::sync::OnceLock<&'static dyn ModuleHost> = std::sync::OnceLock::new();

/// Makes `host` the process's module host, for [`crate::AnyGame::new`] and replays. The first
/// call wins; later ones are ignored (returns whether this one was installed).
#[cfg(feature = "std")]
pub fn install_host(host: &'static dyn ModuleHost) -> bool {
    HOST.set(host).is_ok()
}

/// The process's module host, if one was installed.
pub fn installed_host() -> Option<&'static dyn ModuleHost> {
    #[cfg(feature = "std")]
    {
        HOST.get().copied()
    }
    #[cfg(not(feature = "std"))]
    {
        None
    }
}

/// Opens a module game with `host`, or the installed one.
pub fn open(
    config: &ModuleConfig,
    host: Option<&dyn ModuleHost>,
) -> Result<Box<dyn DynRules>, ConfigError> {
    match host.or_else(|| installed_host().map(|h| h as &dyn ModuleHost)) {
        Some(h) => h.open(config),
        None => Err(ConfigError::new(alloc::format!(
            "game module {} cannot be run here: no module host (this program plays only the \
             built-in games)",
            config.module.name
        ))),
    }
}

#[cfg(feature = "serde")]
pub(crate) mod serde_impl {
    use super::{ModuleConfig, ModuleRef};
    use alloc::string::{String, ToString};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// As written, inside the game object (whose `name` is `module`).
    #[derive(Serialize, Deserialize)]
    pub(crate) struct Written {
        pub module: ModuleRef,
        #[serde(default = "empty_object")]
        pub config: serde_json::Value,
        #[serde(default)]
        pub seed: u64,
    }

    fn empty_object() -> serde_json::Value {
        serde_json::Value::Object(Default::default())
    }

    impl ModuleConfig {
        pub(crate) fn from_written(w: Written) -> Result<ModuleConfig, String> {
            if !w.config.is_object() {
                return Err("a module's config must be a JSON object".into());
            }
            Ok(ModuleConfig {
                module: w.module,
                config: w.config.to_string(),
                seed: w.seed,
            })
        }

        pub(crate) fn written(&self) -> Written {
            Written {
                module: self.module.clone(),
                config: serde_json::from_str(&self.config).unwrap_or_else(|_| empty_object()),
                seed: self.seed,
            }
        }
    }

    impl Serialize for ModuleConfig {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.written().serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for ModuleConfig {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ModuleConfig, D::Error> {
            ModuleConfig::from_written(Written::deserialize(d)?).map_err(serde::de::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_one_short_word() {
        assert_eq!(
            MoveText::new("d1-d7/g7")
                .map(|m| alloc::string::ToString::to_string(&m))
                .as_deref(),
            Some("d1-d7/g7")
        );
        assert!(MoveText::new("").is_none());
        assert!(MoveText::new("a b").is_none());
        assert!(MoveText::new("a\n").is_none());
        assert!(MoveText::new(&"x".repeat(MOVE_MAX + 1)).is_none());
        assert!(MoveText::new(&"é".repeat(MOVE_MAX / 2)).is_some());
    }

    #[test]
    fn no_host_is_a_clear_error() {
        let c = ModuleConfig {
            module: ModuleRef {
                name: "nim".into(),
                version: "1".into(),
                sha256: "00".into(),
            },
            config: "{}".into(),
            seed: 0,
        };
        struct Never;
        impl ModuleHost for Never {
            fn open(&self, c: &ModuleConfig) -> Result<Box<dyn DynRules>, ConfigError> {
                Err(ConfigError::new(alloc::format!(
                    "{} is not here",
                    c.module.name
                )))
            }
        }
        let e = open(&c, Some(&Never)).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("nim is not here"));
    }
}
