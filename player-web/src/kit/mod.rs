//! Game modules (docs/game-kit.md) in the player: a module game plays through the engine's
//! `AnyGame::Module` like a built-in game, its positions held by a module the browser runs.
//!
//! - [`game`]: the engine's `DynRules` and `ModuleHost` over a [`game::Runner`], which runs
//!   module instances: the browser's WebAssembly through `www/kit.js` (`browser`: the module
//!   loaded, checked against its sha256, bounded in fuel and memory), or wasmi in the native
//!   tests.
//! - [`view`]: the module's view read (every field checked: it is a stranger's output) and
//!   as text; [`clicks`]: a move built click by click.

pub mod clicks;
pub mod game;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod browser;

/// `abcdef012345`: the start of a sha256, as errors name a module.
pub fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}
