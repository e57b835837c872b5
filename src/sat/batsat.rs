//! batsat 0.6 (a pure-Rust MiniSat port) behind the [`Solver`] trait.
//!
//! Limits:
//! - incremental with assumptions; the core is MiniSat's final-conflict analysis (a subset of
//!   the assumptions, not minimal). batsat reports it *negated* (`unsat_core()` holds `¬a` for a
//!   failed assumption `a`); [`BatsatSolver::failed`] translates;
//! - interrupt: through our own `batsat::Callbacks::stop`, which reads the [`Interrupter`]'s
//!   flag. batsat polls it once per conflict, so the latency is that of one conflict (measured
//!   0.01–0.15 ms on pigeonhole 12/11, at most 1 ms). batsat's `AsyncInterrupt` is not used: it
//!   lowers the flag when a solve starts, which would lose an interrupt raised before the solve;
//! - no preprocessing, so [`Solver::freeze`]/[`Solver::melt`] are no-ops;
//! - threading: [`BatsatSolver`] is `Send` and `Sync`.

use batsat::{lbool, SolverInterface};

use super::common::{RawSolver, Tracker};
use super::{Capabilities, Interrupter, Lit, SatError, SolveResult};

/// The callbacks batsat polls: stop when the interrupter is raised.
struct Poll(Interrupter);

impl batsat::Callbacks for Poll {
    fn stop(&self) -> bool {
        self.0.is_interrupted()
    }
}

/// A batsat instance behind the [`Solver`] trait.
pub struct BatsatSolver {
    solver: batsat::Solver<Poll>,
    tracker: Tracker,
    /// Scratch buffer for translated literals.
    buf: Vec<batsat::Lit>,
}

impl BatsatSolver {
    /// A fresh solver that polls `interrupter`.
    pub fn new(interrupter: Interrupter) -> BatsatSolver {
        BatsatSolver {
            solver: batsat::Solver::new(batsat::SolverOpts::default(), Poll(interrupter.clone())),
            tracker: Tracker::new("batsat", interrupter),
            buf: Vec::new(),
        }
    }

    /// batsat's literal for `lit`, creating batsat variables up to its variable.
    fn translate(solver: &mut batsat::Solver<Poll>, lit: Lit) -> batsat::Lit {
        let var = solver.var_of_int(lit.var().0);
        batsat::Lit::new(var, !lit.is_negated())
    }

    /// Fill `buf` with the batsat literals of `lits`.
    fn load(&mut self, lits: &[Lit]) {
        self.buf.clear();
        for &lit in lits {
            let l = Self::translate(&mut self.solver, lit);
            self.buf.push(l);
        }
    }

    /// batsat's literal for `lit` if batsat has its variable (no variable is created).
    fn existing(&self, lit: Lit) -> Option<batsat::Lit> {
        if lit.var().0 < self.solver.num_vars() {
            let var = batsat::Var::unsafe_from_idx(lit.var().0);
            Some(batsat::Lit::new(var, !lit.is_negated()))
        } else {
            None
        }
    }
}

impl RawSolver for BatsatSolver {
    const NAME: &'static str = "batsat";
    const CAPABILITIES: Capabilities = Capabilities {
        incremental: true,
        assumptions: true,
        core: true,
        interruptible: true,
    };

    fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    fn tracker_mut(&mut self) -> &mut Tracker {
        &mut self.tracker
    }

    fn add(&mut self, lits: &[Lit]) {
        self.load(lits);
        // `false` means the formula is now UNSAT at level 0; batsat remembers that itself.
        self.solver.add_clause_reuse(&mut self.buf);
    }

    fn run(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.load(assumptions);
        let answer = self.solver.solve_limited(&self.buf);
        if answer == lbool::TRUE {
            SolveResult::Sat
        } else if answer == lbool::FALSE {
            SolveResult::Unsat
        } else {
            SolveResult::Interrupted
        }
    }

    fn model(&self, lit: Lit) -> Result<Option<bool>, SatError> {
        let Some(l) = self.existing(lit) else {
            return Ok(None);
        };
        let v = self.solver.value_lit(l);
        Ok(if v == lbool::TRUE {
            Some(true)
        } else if v == lbool::FALSE {
            Some(false)
        } else {
            None
        })
    }

    fn core(&self, lit: Lit) -> Result<bool, SatError> {
        // Every assumption was translated by the solve, so its variable exists.
        Ok(self
            .existing(lit)
            .is_some_and(|l| self.solver.unsat_core_contains_lit(!l)))
    }
}
