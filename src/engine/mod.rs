//! Model-checking engines on the bit-level [`System`](crate::ts::System) and what they share: options, verdicts,
//! progress reports, cancellation and the unrolling of the transition relation.
//!
//! Every engine polls the [`Interrupter`] it is given (which its SAT solvers poll too), reports
//! progress through a callback, and returns a [`Verdict`]. Engines never print.

pub mod bmc;
pub mod euf;
pub mod graveyard;
pub mod houdini;
pub mod ic3;
pub mod ic3cfa;
pub mod kind;
pub mod optable;
pub mod pdr;
pub mod portfolio;
pub mod preprocess;
pub mod problem;
pub mod registry;
pub mod stats;
pub mod unroll;

use crate::aig::{Aig, AigLit};
use crate::cnf::Cnf;
use crate::sat::{Backend, Interrupter, Var};
use crate::ts::Plan;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What an engine concluded.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The goal is unreachable, with the evidence for it.
    Safe(Certificate),
    /// The goal is reachable along this plan (already checked against the system).
    Unsafe(Plan),
    /// No conclusion, and why.
    Unknown(Unknown),
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

/// What kind of reason an UNKNOWN answer has. The command line decides its exit code by this
/// (an internal error is not an ordinary UNKNOWN), never by the wording of the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// A bound set by the caller was reached (`max_depth`).
    Bound,
    /// The method could not decide: a SAT backend gave up, the program reaches something bitmc
    /// cannot judge (an UNKNOWN sink), a check could not run.
    Incomplete,
    /// Stopped by the interrupter (a time limit, or another portfolio member won).
    Interrupted,
    /// Out of memory: a SAT backend failed to allocate, or the next step would exceed the
    /// memory budget.
    Memory,
    /// A bug in bitmc: evidence that did not check, conflicting verdicts, a counterexample that
    /// does not replay.
    Internal,
}

/// Why there is no verdict: the [`Cause`] and a readable reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub cause: Cause,
    /// The reason, without the `internal error: ` prefix that [`fmt::Display`] adds.
    pub reason: String,
    /// What the run had found before (e.g. the UNKNOWN sink reached before the error location
    /// alone was checked), printed first.
    pub context: Option<String>,
}

impl Unknown {
    /// An UNKNOWN of `cause` with `reason`.
    pub fn new(cause: Cause, reason: impl Into<String>) -> Unknown {
        Unknown {
            cause,
            reason: reason.into(),
            context: None,
        }
    }

    /// The search stopped at a bound set by the caller.
    pub fn bound(reason: impl Into<String>) -> Unknown {
        Unknown::new(Cause::Bound, reason)
    }

    /// The method could not decide.
    pub fn incomplete(reason: impl Into<String>) -> Unknown {
        Unknown::new(Cause::Incomplete, reason)
    }

    /// Stopped by the interrupter.
    pub fn interrupted() -> Unknown {
        Unknown::new(Cause::Interrupted, "interrupted")
    }

    /// Out of memory (or over the memory budget).
    pub fn memory(reason: impl Into<String>) -> Unknown {
        Unknown::new(Cause::Memory, reason)
    }

    /// A bug in bitmc.
    pub fn internal(reason: impl Into<String>) -> Unknown {
        Unknown::new(Cause::Internal, reason)
    }

    /// Whether this is an internal error.
    pub fn is_internal(&self) -> bool {
        self.cause == Cause::Internal
    }

    /// The same UNKNOWN, with `context` printed before it.
    pub fn after(self, context: impl Into<String>) -> Unknown {
        let context = context.into();
        Unknown {
            context: Some(match self.context {
                Some(c) => format!("{context}; {c}"),
                None => context,
            }),
            ..self
        }
    }
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = &self.context {
            write!(f, "{c}; ")?;
        }
        if self.cause == Cause::Internal {
            f.write_str("internal error: ")?;
        }
        f.write_str(&self.reason)
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
    /// An inductive invariant given as a circuit over the current-state variables (e.g.
    /// IC3CFA's per-location word-level clauses, bit-blasted), with the same three conditions.
    Circuit(Arc<CircuitInvariant>),
}

/// An invariant as a circuit: the literal `root` of `aig`, whose inputs stand for system
/// variables, must hold initially, be preserved by every transition and exclude every goal
/// state.
#[derive(Clone, Debug)]
pub struct CircuitInvariant {
    pub aig: Aig,
    pub root: AigLit,
    /// Each input of `aig` (its AIG variable) and the system variable it stands for; every
    /// input of the root's cone is listed.
    pub inputs: Vec<(u32, Var)>,
    /// What the invariant says, for people: a condition per location (its index) as
    /// conjuncts in C.
    pub text: Vec<(u32, Vec<Conjunct>)>,
}

/// One conjunct of an invariant at a location, for people: a side-effect-free C expression over
/// program variables (each written as [`crate::ts::invariants::c_name`] writes it) and the names
/// of the CFA variables it reads, so that a reader can keep only the conjuncts over variables
/// it can name (an SV-COMP witness keeps those in scope at a loop head).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conjunct {
    pub text: String,
    pub vars: Vec<String>,
}

impl Conjunct {
    /// The conjunction of `conjuncts` as one C expression (`1` when there are none).
    pub fn join(conjuncts: &[Conjunct]) -> String {
        match conjuncts {
            [] => "1".to_string(),
            [c] => c.text.clone(),
            cs => cs
                .iter()
                .map(|c| format!("({})", c.text))
                .collect::<Vec<_>>()
                .join(" && "),
        }
    }
}

impl PartialEq for CircuitInvariant {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
            && self.inputs == other.inputs
            && self.text == other.text
            && self.aig.nodes() == other.aig.nodes()
    }
}

impl Eq for CircuitInvariant {}

/// A run or a check stopped by its [`Interrupter`] before it had an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

pub use stats::Stats;

/// A progress report from a running engine.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The engine's name.
    pub engine: &'static str,
    /// The depth (unrolling bound, or frame) reached.
    pub depth: usize,
    /// Time since the engine started.
    pub elapsed: Duration,
    /// What else the engine can say in a few words (e.g. `1204 lemmas`), possibly empty.
    pub detail: String,
    /// The portfolio member that reports (set by the portfolio), e.g. `pdr:cadical`.
    pub member: Option<String>,
}

impl Progress {
    /// A report of `engine` at `depth`, `start` being when the engine started.
    pub fn new(engine: &'static str, depth: usize, start: Instant, detail: String) -> Progress {
        Progress {
            engine,
            depth,
            elapsed: start.elapsed(),
            detail,
            member: None,
        }
    }
}

/// The progress reports of an IC3 run: one when a round (frame) opens, and again from inside
/// a round at most once a second, so that a long round still shows that the engine lives.
pub struct Reporter {
    engine: &'static str,
    start: Instant,
    last: Instant,
    depth: usize,
}

/// How often a long round is reported again.
const REPORT_EVERY: Duration = Duration::from_secs(1);

impl Reporter {
    pub fn new(engine: &'static str, start: Instant) -> Reporter {
        Reporter {
            engine,
            start,
            last: start,
            depth: 0,
        }
    }

    /// The round at `depth` opens.
    pub fn round(&mut self, progress: ProgressFn<'_>, depth: usize, detail: String) {
        self.depth = depth;
        self.last = Instant::now();
        progress(&Progress::new(self.engine, depth, self.start, detail));
    }

    /// Reports the current round again when a second has passed since the last report.
    pub fn tick(&mut self, progress: ProgressFn<'_>, detail: impl FnOnce() -> String) {
        if self.last.elapsed() >= REPORT_EVERY {
            self.last = Instant::now();
            progress(&Progress::new(
                self.engine,
                self.depth,
                self.start,
                detail(),
            ));
        }
    }
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
/// otherwise the backend gave up on its own: out of memory, another failure it reported (see
/// [`crate::sat::take_failure`]), or a resource limit.
pub fn stopped(opts: &Options) -> Verdict {
    let failure = crate::sat::take_failure();
    Verdict::Unknown(if opts.interrupter.is_interrupted() {
        Unknown::interrupted()
    } else {
        match failure {
            Some(f @ crate::sat::Failure::OutOfMemory { .. }) => Unknown::memory(f.to_string()),
            Some(f @ crate::sat::Failure::Exception { .. }) => Unknown::internal(f.to_string()),
            None => Unknown::incomplete(format!("the SAT backend {} gave up", opts.backend)),
        }
    })
}

/// A progress callback.
pub type ProgressFn<'a> = &'a mut dyn FnMut(&Progress);

impl EngineKind {
    /// Run this engine with its default options on `problem`.
    pub fn run(
        self,
        problem: &Problem<'_>,
        opts: &Options,
        progress: ProgressFn<'_>,
    ) -> (Verdict, Stats) {
        EngineOptions::defaults(self)
            .as_engine()
            .run(problem, opts, progress)
    }
}

pub use problem::{no_program_reason, Engine, Problem, Program, SystemEngine};
pub use registry::{Derived, EngineKind, EngineOptions};
