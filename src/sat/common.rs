//! Bookkeeping shared by every backend: the variable count and its limit, and the answer of the
//! last solve, which decides whether [`Solver::value`](super::Solver::value) and
//! [`Solver::failed`](super::Solver::failed) may be asked at all.
//!
//! A backend implements [`RawSolver`], the calls into its solver; the [`Solver`] trait is
//! implemented once for all of them here, consulting the backend's [`Tracker`] *before* it
//! calls into the underlying solver, so a query in the wrong state is a [`SatError`] here and
//! never reaches a backend's own checks (CaDiCaL aborts the process on those).

use super::{Capabilities, Interrupter, Lit, SatError, SolveResult, Solver, Var, MAX_VARS};

/// The calls a backend makes into its solver. Each is reached only in a state the
/// [`Tracker`] allows: [`RawSolver::add`] with literals whose variables are below
/// [`MAX_VARS`], [`RawSolver::run`] when no limit or interrupt stops the solve first,
/// [`RawSolver::model`] after a SAT answer and [`RawSolver::core`] after an UNSAT one, for an
/// assumption of that solve.
pub(crate) trait RawSolver {
    /// The backend's name, e.g. `"cadical"`.
    const NAME: &'static str;
    /// What the backend supports.
    const CAPABILITIES: Capabilities;
    fn tracker(&self) -> &Tracker;
    fn tracker_mut(&mut self) -> &mut Tracker;
    /// Passes a clause on.
    fn add(&mut self, lits: &[Lit]);
    /// Solves under `assumptions`.
    fn run(&mut self, assumptions: &[Lit]) -> SolveResult;
    /// The value of `lit` in the model of the last solve.
    fn model(&self, lit: Lit) -> Result<Option<bool>, SatError>;
    /// Whether the assumption `lit` is in the failed core of the last solve.
    fn core(&self, lit: Lit) -> Result<bool, SatError>;
    /// See [`Solver::freeze`].
    fn freeze(&mut self, _var: Var) {}
    /// See [`Solver::melt`].
    fn melt(&mut self, _var: Var) {}
}

impl<T: RawSolver> Solver for T {
    fn name(&self) -> &'static str {
        T::NAME
    }

    fn capabilities(&self) -> Capabilities {
        T::CAPABILITIES
    }

    fn new_var(&mut self) -> Var {
        self.tracker_mut().new_var()
    }

    fn num_vars(&self) -> u32 {
        self.tracker().num_vars()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        let tracker = self.tracker_mut();
        tracker.input();
        if tracker.note(lits) {
            self.add(lits);
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        let raised = self.tracker().interrupter.is_interrupted();
        if let Some(result) = self.tracker_mut().begin(assumptions, raised) {
            return result;
        }
        let result = self.run(assumptions);
        self.tracker_mut().finish(result)
    }

    fn value(&self, lit: Lit) -> Result<Option<bool>, SatError> {
        self.tracker().check_model()?;
        self.model(lit)
    }

    fn failed(&self, lit: Lit) -> Result<bool, SatError> {
        self.tracker().check_failed(lit)?;
        self.core(lit)
    }

    fn interrupter(&self) -> Interrupter {
        self.tracker().interrupter.clone()
    }

    fn freeze(&mut self, var: Var) {
        RawSolver::freeze(self, var)
    }

    fn melt(&mut self, var: Var) {
        RawSolver::melt(self, var)
    }
}

/// What the caller may ask about the last solve.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Phase {
    /// No answer: nothing solved yet, or the input changed since.
    Input,
    /// The last solve answered SAT; a model may be queried.
    Sat,
    /// The last solve answered UNSAT; the failed assumptions may be queried.
    Unsat,
    /// The last solve was stopped; neither a model nor a core exists.
    Interrupted,
}

/// The state every backend keeps next to its solver.
#[derive(Debug)]
pub(crate) struct Tracker {
    backend: &'static str,
    /// The flag that stops the solver (polled by the backend, or checked before each solve).
    interrupter: Interrupter,
    num_vars: u32,
    /// A variable at or beyond [`MAX_VARS`] was requested or mentioned. The input it came with
    /// was dropped, so every later solve answers `Interrupted` (a resource limit).
    overflow: bool,
    /// The backend failed (see [`super::Failure`]): every later solve answers `Interrupted`.
    failed: bool,
    phase: Phase,
    /// The assumptions of the last solve, sorted and without duplicates.
    assumptions: Vec<Lit>,
}

impl Tracker {
    pub(crate) fn new(backend: &'static str, interrupter: Interrupter) -> Tracker {
        Tracker {
            backend,
            interrupter,
            num_vars: 0,
            overflow: false,
            failed: false,
            phase: Phase::Input,
            assumptions: Vec::new(),
        }
    }

    pub(crate) fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// Whether `var` was handed out or mentioned so far.
    pub(crate) fn knows(&self, var: Var) -> bool {
        var.0 < self.num_vars
    }

    /// The next variable. Past the limit the solver is marked as overflowed and the returned
    /// variable must not be used (any clause with it is dropped).
    pub(crate) fn new_var(&mut self) -> Var {
        let var = Var(self.num_vars);
        if self.num_vars < MAX_VARS {
            self.num_vars += 1;
        } else {
            self.overflow = true;
        }
        var
    }

    /// Account for the variables of `lits`; `false` (and overflow) if one is beyond the limit,
    /// in which case the caller must not pass `lits` on to its solver.
    pub(crate) fn note(&mut self, lits: &[Lit]) -> bool {
        if !self.extend(lits) {
            self.overflow = true;
            return false;
        }
        true
    }

    /// Extend the variable count to cover `lits`; `false` (and no change) if one is beyond the
    /// limit.
    fn extend(&mut self, lits: &[Lit]) -> bool {
        let Some(max) = lits.iter().map(|l| l.var().0).max() else {
            return true;
        };
        if max >= MAX_VARS {
            return false;
        }
        self.num_vars = self.num_vars.max(max + 1);
        true
    }

    /// The backend failed: no answer now, and every later solve answers `Interrupted`.
    pub(crate) fn give_up(&mut self) {
        self.failed = true;
        self.phase = Phase::Interrupted;
    }

    /// The input changes (a clause is added): the answer of the last solve is gone.
    pub(crate) fn input(&mut self) {
        self.phase = Phase::Input;
        self.assumptions.clear();
    }

    /// Start a solve under `assumptions`. Returns `Some(Interrupted)` when the solve must not
    /// run: the flag is raised (`raised`), the solver overflowed, or an assumption is beyond the variable
    /// limit (that one solve only: the assumption is not passed on). Otherwise the caller solves
    /// and passes its answer through [`Tracker::finish`].
    pub(crate) fn begin(&mut self, assumptions: &[Lit], raised: bool) -> Option<SolveResult> {
        self.assumptions.clear();
        self.assumptions.extend_from_slice(assumptions);
        self.assumptions.sort_unstable();
        self.assumptions.dedup();
        self.phase = Phase::Interrupted;
        if !self.extend(assumptions) || self.overflow || self.failed || raised {
            return Some(SolveResult::Interrupted);
        }
        None
    }

    /// Record the answer of the solve started by [`Tracker::begin`].
    pub(crate) fn finish(&mut self, result: SolveResult) -> SolveResult {
        let result = if self.failed {
            SolveResult::Interrupted
        } else {
            result
        };
        self.phase = match result {
            SolveResult::Sat => Phase::Sat,
            SolveResult::Unsat => Phase::Unsat,
            SolveResult::Interrupted => Phase::Interrupted,
        };
        result
    }

    /// May a model be queried now?
    pub(crate) fn check_model(&self) -> Result<(), SatError> {
        if self.overflow {
            return Err(SatError::TooManyVars {
                backend: self.backend,
            });
        }
        if self.phase != Phase::Sat {
            return Err(SatError::NoModel {
                backend: self.backend,
            });
        }
        Ok(())
    }

    /// May `lit` be asked for in the failed-assumption core now?
    pub(crate) fn check_failed(&self, lit: Lit) -> Result<(), SatError> {
        if self.overflow {
            return Err(SatError::TooManyVars {
                backend: self.backend,
            });
        }
        if self.phase != Phase::Unsat {
            return Err(SatError::NoCore {
                backend: self.backend,
            });
        }
        if self.assumptions.binary_search(&lit).is_err() {
            return Err(SatError::NotAnAssumption {
                backend: self.backend,
                lit: dimacs_for_report(lit),
            });
        }
        Ok(())
    }
}

/// The DIMACS form of `lit` for an error message, also for variables past [`MAX_VARS`] (whose
/// DIMACS number may not fit an `i32`).
fn dimacs_for_report(lit: Lit) -> i32 {
    if lit.var().0 < MAX_VARS {
        lit.to_dimacs()
    } else if lit.is_negated() {
        -i32::MAX
    } else {
        i32::MAX
    }
}
