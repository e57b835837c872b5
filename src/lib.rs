//! bitmc: a bit-precise model checker for C programs without heap.
//!
//! The pipeline and the invariants between the modules are described in `ARCHITECTURE.md`.

pub mod bv;
pub mod cfa;
pub mod frontend;
