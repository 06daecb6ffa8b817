//! The embeddable replay player (wasm). Not built yet: tracked by issue 4.
#![no_std]
