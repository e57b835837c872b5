//! IC3, written once for PDR (on the bit-level system) and IC3CFA (on the control-flow
//! automaton), after pono's IC3 base class with thin variants.
//!
//! The two engines differ in what a state set is and how a query is asked: PDR's cubes are
//! sorted latch literals and its frames are one sequence of levels; IC3CFA's cubes are sorted
//! word-level atoms and it keeps one sequence of levels per location of the CFA. The algorithm
//! and the data it runs on live here:
//!
//! - [`run`]: the main loop, the rounds and the blocking of obligations, with each variant's
//!   part behind the hooks of [`Ic3`] (frame layout, cubes, the relative-induction query,
//!   predecessors and lifting, generalisation, the certificate); its doc says how EUForia's
//!   abstraction and refinement fit them too;
//! - [`propagate`]: pushing lemmas up after each round, and termination at an empty level;
//! - [`mic`]: MIC with counterexamples to generalisation and `down`, with the variant's query
//!   behind [`Mic`];
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
//! which filters spare propagation queries, and IC3CFA's generalisation strategies (the
//! per-edge union, genBinary, contexts, the bit-level fallback).

pub mod cube;
mod frames;
mod generalise;
mod mic;
mod propagate;
mod queue;
mod template;
#[cfg(test)]
mod tests;

pub use frames::Frames;
pub use generalise::{binary, drop_literals};
pub use mic::{mic, Gen, Mic};
pub use queue::{ObId, Order, Queue};
pub use template::{run, Ic3, Pred, Query, Retry};
