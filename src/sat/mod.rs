//! The SAT layer: literal and variable newtypes, the [`Solver`] trait every engine talks to,
//! and the backends behind it (CaDiCaL, batsat, varisat, splr).
//!
//! Conventions shared by every backend:
//! - Variables are dense indices from 0 and are never deleted. [`Solver::new_var`] hands out the
//!   next one; a clause that mentions a variable beyond the current count extends the count.
//! - Removable clauses are built by the caller with activation literals (the scheme of LLUMC, Kleine Büning, Balyo and Sinz).
//! - Misuse (asking for a model after UNSAT, or for a core after SAT) is a [`SatError`], never an
//!   abort of the process.
//! - Every solver polls a shared [`Interrupter`]; once raised, a running or later `solve` returns
//!   [`SolveResult::Interrupted`] until the flag is lowered again.
//! - Variables are limited to indices below [`MAX_VARS`]. A clause (or assumption) that mentions a
//!   larger one is not passed on; from then on every `solve` answers
//!   [`SolveResult::Interrupted`] (a resource limit) and `value`/`failed` return
//!   [`SatError::TooManyVars`].
//! - A backend that fails (CaDiCaL running out of memory: a C++ exception caught at the C
//!   boundary) records a [`Failure`] for its thread ([`take_failure`]); from then on every
//!   `solve` answers [`SolveResult::Interrupted`] and `value`/`failed` return
//!   [`SatError::Failed`].
//! - `value` may answer `Ok(None)` for a variable that no clause or assumption mentions (any
//!   value works); it always does for one beyond every variable mentioned or handed out.

use std::fmt;
use std::ops::Not;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The number of variables every backend supports (varisat's limit, the smallest of the four).
pub const MAX_VARS: u32 = 1 << 28;

/// A propositional variable, numbered densely from 0.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Var(pub u32);

impl Var {
    /// The index of this variable.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The positive literal of this variable.
    pub fn pos(self) -> Lit {
        Lit::new(self, false)
    }
    /// The negative literal of this variable.
    // Not `std::ops::Neg`: the result is a literal, not a variable.
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Lit {
        Lit::new(self, true)
    }
}

/// A literal: a variable with a sign, packed as `2 * var + negated`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit(u32);

impl Lit {
    /// The literal of `var`, negated if `negated`.
    pub fn new(var: Var, negated: bool) -> Lit {
        Lit((var.0 << 1) | negated as u32)
    }
    /// The variable of this literal.
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    /// Whether this is the negative literal of its variable.
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    /// The packed code `2 * var + negated`.
    pub fn code(self) -> u32 {
        self.0
    }
    /// The literal with the packed code `2 * var + negated`.
    pub fn from_code(code: u32) -> Lit {
        Lit(code)
    }
    /// DIMACS form: variable `v` is the integer `v + 1`, negative when negated.
    pub fn to_dimacs(self) -> i32 {
        let v = self.var().0 as i32 + 1;
        if self.is_negated() {
            -v
        } else {
            v
        }
    }
    /// The literal of a non-zero DIMACS integer.
    pub fn from_dimacs(d: i32) -> Lit {
        debug_assert!(d != 0);
        Lit::new(Var(d.unsigned_abs() - 1), d < 0)
    }
    /// This literal with its sign flipped when `flip` holds.
    pub fn xor_sign(self, flip: bool) -> Lit {
        Lit(self.0 ^ flip as u32)
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// The outcome of one call to [`Solver::solve`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SolveResult {
    Sat,
    Unsat,
    /// Stopped by the [`Interrupter`] or by a resource limit of the backend.
    Interrupted,
}

/// What a backend can do; engines and the portfolio consult this instead of the backend's name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Capabilities {
    /// Clauses may be added after a `solve`, and learnt information is kept between calls.
    pub incremental: bool,
    /// `solve` honours assumptions natively (otherwise they are emulated by a fresh solve).
    pub assumptions: bool,
    /// `failed` returns a genuine subset of the assumptions (otherwise all of them).
    pub core: bool,
    /// A running `solve` stops soon after the [`Interrupter`] is raised.
    pub interruptible: bool,
}

/// Misuse of a solver, reported instead of aborting the process.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SatError {
    #[error("{backend}: a model was requested but the last solve did not answer SAT")]
    NoModel { backend: &'static str },
    #[error(
        "{backend}: a failed-assumption core was requested but the last solve did not answer UNSAT"
    )]
    NoCore { backend: &'static str },
    #[error("{backend}: literal {lit} was not an assumption of the last solve")]
    NotAnAssumption { backend: &'static str, lit: i32 },
    #[error("{backend}: variable limit exceeded")]
    TooManyVars { backend: &'static str },
    #[error("{backend}: the solver failed (see the failure recorded for the thread)")]
    Failed { backend: &'static str },
}

/// Why a backend stopped working: recorded for the thread that used it (see [`take_failure`]),
/// after which its `solve` answers [`SolveResult::Interrupted`] for good.
///
/// It is `Copy` (the text of an exception is kept in a fixed buffer) so that the thread-local
/// record needs no destructor: registering one allocates, and failures come when memory is
/// short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// An allocation failed: inside the solver (a C++ `std::bad_alloc`), or for what it needs
    /// beside it (e.g. the thread that raises the interrupter at a deadline).
    #[error("out of memory in {during}")]
    OutOfMemory { during: &'static str },
    /// The solver threw another exception (a bug).
    #[error("the SAT backend {backend} failed: {what}")]
    Exception {
        backend: &'static str,
        what: ExceptionText,
    },
}

/// The first bytes of an exception's text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ExceptionText {
    bytes: [u8; 120],
    len: u8,
}

impl ExceptionText {
    /// The first 120 bytes of `s` (cut at a character boundary).
    pub fn new(s: &str) -> ExceptionText {
        let mut len = s.len().min(120);
        while !s.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0; 120];
        bytes[..len].copy_from_slice(&s.as_bytes()[..len]);
        ExceptionText {
            bytes,
            len: len as u8,
        }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Display for ExceptionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for ExceptionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

thread_local! {
    static FAILURE: std::cell::Cell<Option<Failure>> = const { std::cell::Cell::new(None) };
}

/// Record that a backend used by this thread failed (the first failure since the last
/// [`take_failure`] is kept).
pub(crate) fn record_failure(f: Failure) {
    FAILURE.with(|r| {
        if r.get().is_none() {
            r.set(Some(f));
        }
    });
}

/// The failure of a backend used by this thread since the last call, if any. An engine whose
/// solver answered [`SolveResult::Interrupted`] without its interrupter raised asks this to
/// say why (every engine runs its solvers on its own thread).
pub fn take_failure() -> Option<Failure> {
    FAILURE.with(|r| r.take())
}

/// Bytes of address space needed to start a thread (its stack, its signal stack, a malloc
/// arena), beyond [`memory::RESERVE`]: the Rust runtime aborts the process when a new thread
/// cannot map its signal stack.
const THREAD_RESERVE: usize = 96 << 20;

/// A shared flag that stops solvers (and engines) from another thread.
///
/// Cloning gives another handle to the same flag. It is `Send + Sync`.
#[derive(Clone, Debug, Default)]
pub struct Interrupter(Arc<AtomicBool>);

impl Interrupter {
    /// A fresh, lowered flag.
    pub fn new() -> Interrupter {
        Interrupter::default()
    }
    /// Raise the flag: running solves return `Interrupted` soon, later ones at once.
    pub fn interrupt(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// Lower the flag again.
    pub fn reset(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
    /// Whether the flag is raised.
    pub fn is_interrupted(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// The flag itself, for backends that poll an `AtomicBool`.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.0
    }
}

/// Run `f` with an interrupter that is raised at `deadline` or when `global` is (a thread
/// watches both). When memory is too short to start that thread, `f` runs with the
/// interrupter raised (so it stops at once) and [`Failure::OutOfMemory`] is recorded.
pub fn with_deadline<R>(
    global: &Interrupter,
    deadline: std::time::Instant,
    f: impl FnOnce(&Interrupter) -> R,
) -> R {
    let local = Interrupter::new();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let watcher = memory::room_for(THREAD_RESERVE).then(|| {
            std::thread::Builder::new().spawn_scoped(s, || {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    if global.is_interrupted() || std::time::Instant::now() >= deadline {
                        local.interrupt();
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            })
        });
        if !matches!(watcher, Some(Ok(_))) {
            record_failure(Failure::OutOfMemory {
                during: "starting a deadline thread",
            });
            local.interrupt();
        }
        let r = f(&local);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        r
    })
}

/// An incremental SAT solver with assumptions.
///
/// Backends are not required to be `Send`: an engine creates its solvers on its own thread.
pub trait Solver {
    /// A short name of the backend, e.g. `"cadical"`.
    fn name(&self) -> &'static str;
    /// What this backend supports.
    fn capabilities(&self) -> Capabilities;
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// The number of variables handed out or mentioned so far.
    fn num_vars(&self) -> u32;
    /// Add a clause. An empty clause makes the solver UNSAT for good.
    fn add_clause(&mut self, lits: &[Lit]);
    /// Solve under the given assumptions.
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult;
    /// The value of a literal in the model of the last solve, which must have been `Sat`.
    /// `None` when the backend left the variable unassigned (any value works).
    fn value(&self, lit: Lit) -> Result<Option<bool>, SatError>;
    /// Whether the assumption `lit` is in the failed-assumption core of the last solve, which
    /// must have been `Unsat`.
    fn failed(&self, lit: Lit) -> Result<bool, SatError>;
    /// The flag that stops this solver.
    fn interrupter(&self) -> Interrupter;
    /// Keep a variable from being eliminated by preprocessing (a hint; default no-op).
    fn freeze(&mut self, _var: Var) {}
    /// Undo [`Solver::freeze`] (default no-op).
    fn melt(&mut self, _var: Var) {}

    /// Convenience: the value of a literal in the last model, unassigned read as `false`.
    fn model_value(&self, lit: Lit) -> bool {
        matches!(self.value(lit), Ok(Some(true)))
    }
}

/// The backends, by name; the CLI and the portfolio parse these.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Backend {
    Cadical,
    Batsat,
    Varisat,
    Splr,
}

impl Backend {
    /// Every backend, primary first.
    pub const ALL: [Backend; 4] = [
        Backend::Cadical,
        Backend::Batsat,
        Backend::Varisat,
        Backend::Splr,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cadical => "cadical",
            Backend::Batsat => "batsat",
            Backend::Varisat => "varisat",
            Backend::Splr => "splr",
        }
    }

    /// The backend of a command-line name.
    pub fn from_name(s: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == s)
    }

    /// A different backend, for checking a certificate or a trace independently of the solver
    /// that produced it.
    pub fn independent_of(self) -> Backend {
        match self {
            Backend::Cadical => Backend::Batsat,
            _ => Backend::Cadical,
        }
    }

    /// A new solver of this backend that polls `interrupter`.
    pub fn create(self, interrupter: &Interrupter) -> Box<dyn Solver> {
        match self {
            Backend::Cadical => Box::new(cadical::CadicalSolver::new(interrupter.clone())),
            Backend::Batsat => Box::new(batsat::BatsatSolver::new(interrupter.clone())),
            Backend::Varisat => Box::new(varisat::VarisatSolver::new(interrupter.clone())),
            Backend::Splr => Box::new(splr::SplrSolver::new(interrupter.clone())),
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod common;
pub mod memory;

pub mod batsat;
pub mod cadical;
pub mod splr;
pub mod varisat;
