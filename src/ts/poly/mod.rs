//! Polynomial invariants of a program system: polynomial equalities over the state variables,
//! learned from sampled states and proved by polynomial arithmetic modulo `2^w`
//! ([`crate::bv::poly`], whose identities hold whatever the values: no overflow can break
//! them).
//!
//! - [`discover`]: candidates from samples, after DIG (Nguyen et al., "Using Dynamic Analysis
//!   to Discover Polynomial and Array Invariants"): the null space of the matrix of monomial
//!   values, over the rationals.
//! - [`prove`]: Houdini over the CFA's edges with polynomial reduction, and the program's own
//!   equalities that the proved polynomials imply.

pub mod discover;
pub mod prove;

pub use crate::bv::poly::{signed, Basis, Converter, Monomial, Poly};

#[cfg(test)]
mod tests;
