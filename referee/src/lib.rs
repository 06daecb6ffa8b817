//! arbiter: referee for AI-bot contests on board games.

pub mod process;
