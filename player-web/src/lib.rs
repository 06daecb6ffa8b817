//! The embeddable replay player's engine side, compiled to wasm: reads a replay strictly
//! through arbiter-engine, keeps checkpoints, and hands the page one ready-to-draw view per
//! frame. The page (`www/player.html`) draws and speaks the Saiblo player protocol.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod session;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod bindings;

pub use session::{LoadError, Session};
pub use view::FrameView;
