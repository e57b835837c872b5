//! The IC3 core that PDR (on the bit-level system) and IC3CFA (on the control-flow automaton)
//! both run on, after the IC3 core with thin variants of pono.
//!
//! The two engines differ in what a state set is and how a query is asked: PDR's cubes are
//! sorted latch literals and its frames are one sequence of levels; IC3CFA's cubes are sorted
//! word-level atoms and it keeps one sequence of levels per location of the CFA. What they do
//! with cubes is the same, and lives here:
//!
//! - [`cube`]: subset and union of sorted cubes;
//! - [`Frames`]: delta-encoded frames over a number of *places* (one for PDR, one per location
//!   for IC3CFA), where each lemma is stored once at the highest level it is known to hold, and
//!   adding a lemma removes the lemmas of the same place at that level or below that it
//!   subsumes;
//! - [`Queue`]: proof obligations ordered lowest level first, ties broken by a policy
//!   ([`Order`]);
//! - [`drop_literals`] and [`binary`]: the control flow of literal-dropping generalisation
//!   (MIC) and of Bradley and Manna's binary search (`genBinary`), with the engine's query
//!   passed in as a closure.
//!
//! What stays in each engine is what only it knows: how a cube is asked of a solver, how a
//! predecessor is formed (lifting in PDR, the weakest precondition along the model in IC3CFA),
//! CTGs and `down` (PDR), the per-edge union and the bit-level fallback (IC3CFA).

pub mod cube;
mod frames;
mod generalise;
mod queue;

pub use frames::Frames;
pub use generalise::{binary, drop_literals};
pub use queue::{ObId, Order, Queue};
