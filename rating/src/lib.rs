//! Statistics of a match played in game pairs (one opening, colours swapped), as chess engine
//! testers use them: pentanomial counts, the generalised SPRT log-likelihood ratio (LLR), and
//! Elo with its 95 % interval and likelihood of superiority (LOS). Pure arithmetic, no I/O.
//!
//! - [`Pentanomial`]: how many pairs scored 0, 0.5, 1, 1.5 and 2 points.
//! - [`Sprt`]: the test, its bounds and its LLR in the normalised (default) or logistic Elo model.
//! - [`Estimate`]: Elo ± 95 %, normalised Elo, LOS.
//!
//! The arithmetic follows Michel Van den Bergh's notes, as fastchess (`sprt.cpp`,
//! `elo_pentanomial.cpp`) and OpenBench (`stats.py`, from Fishtest) implement them; the reference
//! values in the tests were printed by those programs (rating/reference/README.md).

mod estimate;
mod mle;
mod pentanomial;
mod sprt;

pub use estimate::Estimate;
pub use pentanomial::{GameResult, Pentanomial, PAIR_OUTCOMES};
pub use sprt::{Decision, EloModel, Sprt, SprtError};
