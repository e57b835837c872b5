//! bitmc: a bit-precise model checker for C programs without heap.
//!
//! The pipeline and the invariants between the modules are described in `ARCHITECTURE.md`.

pub mod aig;
pub mod bv;
pub mod cfa;
pub mod cnf;
pub mod engine;
pub mod frontend;
pub mod sat;
pub mod task;
pub mod ts;
pub mod verify;
pub mod witness;
