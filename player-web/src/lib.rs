//! The embeddable replay player, compiled to wasm: reads a replay strictly through
//! arbiter-engine, keeps checkpoints, and (in the browser) draws each frame on the canvas,
//! updates the page and speaks the Saiblo player protocol. `www/player.html` holds only the
//! HTML, the CSS and a bootstrap script that queues early messages and starts the wasm.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
// The browser side keeps its single-threaded state in `thread_local!` cells; a live game's
// positions are shared behind a `Mutex` (`feed::Positions`).
extern crate std;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: arbiter_player_alloc::Classes = arbiter_player_alloc::Classes::new();

pub mod failure;
pub mod feed;
#[cfg(any(target_arch = "wasm32", test))]
mod json;
pub mod kit;
pub mod lang;
pub mod session;
pub mod split;
pub mod units;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod bindings;
#[cfg(target_arch = "wasm32")]
mod controls;
#[cfg(target_arch = "wasm32")]
mod dom;
#[cfg(target_arch = "wasm32")]
pub mod draw;
#[cfg(target_arch = "wasm32")]
mod live;
#[cfg(target_arch = "wasm32")]
mod protocol;

pub use session::{LoadError, Session};
pub use view::FrameView;
