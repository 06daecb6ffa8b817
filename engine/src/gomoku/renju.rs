//! RIF renju restrictions for black: double-three, double-four, overline.
//!
//! STUB: being written.
