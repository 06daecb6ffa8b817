//! Saiblo compatibility (seed 002): our games as a Saiblo game logic ([`logic`]), a local
//! Saiblo judger for any logic ([`judge`]), and the wire formats they share ([`frame`],
//! [`message`]). Specified for users in `docs/saiblo.md`.

pub mod frame;
pub mod judge;
pub mod logic;
pub mod message;
