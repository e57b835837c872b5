//! Model-checking engines on the bit-level [`System`] and what they share: options, verdicts,
//! progress reports, cancellation and the unrolling of the transition relation.
//!
//! Every engine polls the [`Interrupter`] it is given (which its SAT solvers poll too), reports
//! progress through a callback, and returns a [`Verdict`]. Engines never print.

pub mod bmc;
pub mod graveyard;
pub mod houdini;
pub mod kind;
pub mod pdr;
pub mod portfolio;
pub mod unroll;

use crate::cnf::Cnf;
use crate::sat::{Backend, Interrupter};
use crate::ts::{Plan, System};
use std::time::Duration;

/// What an engine concluded.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The goal is unreachable, with the evidence for it.
    Safe(Certificate),
    /// The goal is reachable along this plan (already checked against the system).
    Unsafe(Plan),
    /// No conclusion, and why.
    Unknown(String),
}

impl Verdict {
    /// `SAFE`, `UNSAFE` or `UNKNOWN`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Safe(_) => "SAFE",
            Verdict::Unsafe(_) => "UNSAFE",
            Verdict::Unknown(_) => "UNKNOWN",
        }
    }
}

/// The evidence behind a SAFE verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// No goal state satisfies the constraints, or no initial state exists.
    Trivial,
    /// k-induction succeeded at depth `k`: no goal within `k` steps, and every loop-free path
    /// of `k + 1` states whose first `k` states avoid the goal also avoids it at the end.
    KInduction { k: usize },
    /// No goal within `k` steps, and every path of `k + 1` states from an initial state whose
    /// first `k` states avoid the goal repeats a state (so every reachable state is reachable
    /// within `k` steps).
    Diameter { k: usize },
    /// An inductive invariant: clauses over the current-state variables that hold initially,
    /// are preserved by every transition, and exclude every goal state.
    Invariant(Cnf),
}

/// A run or a check stopped by its [`Interrupter`] before it had an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// Named statistics of a run, in the order they should be shown.
pub type Stats = Vec<(&'static str, String)>;

/// A progress report from a running engine.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The engine's name.
    pub engine: &'static str,
    /// The depth (unrolling bound, or frame) reached.
    pub depth: usize,
    /// Time since the engine started.
    pub elapsed: Duration,
}

/// Options shared by the engines.
#[derive(Clone, Debug)]
pub struct Options {
    /// The SAT backend the engine's solvers use.
    pub backend: Backend,
    /// The largest unrolling depth to try (`None` = unbounded).
    pub max_depth: Option<usize>,
    /// Cancels the engine and its solvers.
    pub interrupter: Interrupter,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            backend: Backend::Cadical,
            max_depth: None,
            interrupter: Interrupter::new(),
        }
    }
}

/// The verdict of an engine whose solver stopped: `interrupted` when the run was cancelled,
/// otherwise the backend gave up on its own (a resource limit or a failure it reported).
pub fn stopped(opts: &Options) -> Verdict {
    if opts.interrupter.is_interrupted() {
        Verdict::Unknown("interrupted".into())
    } else {
        Verdict::Unknown(format!("the SAT backend {} gave up", opts.backend))
    }
}

/// A progress callback.
pub type ProgressFn<'a> = &'a mut dyn FnMut(&Progress);

/// The engines `solve` offers, by name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineKind {
    Bmc,
    Kind,
    Pdr,
}

impl EngineKind {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Bmc => "bmc",
            EngineKind::Kind => "kind",
            EngineKind::Pdr => "pdr",
        }
    }

    /// Run this engine on `sys`.
    pub fn run(self, sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
        match self {
            EngineKind::Bmc => bmc::run(sys, opts, progress),
            EngineKind::Kind => kind::run(sys, opts, progress),
            EngineKind::Pdr => pdr::run(sys, opts, progress),
        }
    }
}
