//! The trace oracle: the statements of a printed counterexample against the statements a gcc
//! build of the same program executes on the same inputs ([`probe`]: a line probe per
//! statement in the gcc build only; [`printed`]: bitmc's output read back).
#![allow(dead_code)]

pub mod printed;
pub mod probe;
