//! varisat 0.2.2 (pure Rust, unmaintained since 2020) behind the [`Solver`] trait; meant as an
//! independent checker of certificates and traces.
//!
//! Limits:
//! - incremental with assumptions; `failed` is varisat's failed core (a subset of the
//!   assumptions, not minimal). varisat keeps assumptions across solves until replaced, so every
//!   solve sets them afresh (possibly to none);
//! - **no interrupt**: varisat has no callback and no limit. A raised [`Interrupter`] is only
//!   seen before a solve starts (it then answers `Interrupted` at once); a running solve runs to
//!   the end. Use it on bounded queries, or in a process that ends with the verdict;
//! - the model is copied out once per SAT answer (varisat's `model()` allocates it anyway);
//! - no preprocessing, so [`Solver::freeze`]/[`Solver::melt`] are no-ops;
//! - threading: [`VarisatSolver`] is **not** `Send` (varisat's solver is not).

use super::common::{RawSolver, Tracker};
use super::{Capabilities, Interrupter, Lit, SatError, SolveResult};

/// A varisat instance behind the [`Solver`] trait.
pub struct VarisatSolver {
    solver: varisat::Solver<'static>,
    tracker: Tracker,
    /// A varisat error that forbids further solves (none is expected: no proof is written).
    broken: bool,
    /// The model of the last SAT answer, indexed by variable; `None` where varisat left the
    /// variable unassigned.
    model: Vec<Option<bool>>,
    /// The failed core of the last UNSAT answer, sorted.
    core: Vec<Lit>,
    /// Scratch buffer for translated literals.
    buf: Vec<varisat::Lit>,
}

impl VarisatSolver {
    /// A fresh solver; `interrupter` is checked before each solve only.
    pub fn new(interrupter: Interrupter) -> VarisatSolver {
        VarisatSolver {
            solver: varisat::Solver::new(),
            tracker: Tracker::new("varisat", interrupter),
            broken: false,
            model: Vec::new(),
            core: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Fill `buf` with the varisat literals of `lits` (same packing: `2 * var + negated`).
    fn load(&mut self, lits: &[Lit]) {
        self.buf.clear();
        self.buf.extend(
            lits.iter()
                .map(|l| varisat::Lit::from_code(l.code() as usize)),
        );
    }

    /// Copy the model out of varisat after a SAT answer.
    fn take_model(&mut self) -> bool {
        let Some(lits) = self.solver.model() else {
            return false;
        };
        self.model.clear();
        self.model.resize(self.tracker.num_vars() as usize, None);
        for l in lits {
            if let Some(slot) = self.model.get_mut(l.index()) {
                *slot = Some(l.is_positive());
            }
        }
        true
    }

    /// Copy the failed core out of varisat after an UNSAT answer.
    fn take_core(&mut self) -> bool {
        let Some(core) = self.solver.failed_core() else {
            return false;
        };
        self.core.clear();
        self.core
            .extend(core.iter().map(|l| Lit::from_code(l.code() as u32)));
        self.core.sort_unstable();
        true
    }
}

impl RawSolver for VarisatSolver {
    const NAME: &'static str = "varisat";
    const CAPABILITIES: Capabilities = Capabilities {
        incremental: true,
        assumptions: true,
        core: true,
        interruptible: false,
    };

    fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    fn tracker_mut(&mut self) -> &mut Tracker {
        &mut self.tracker
    }

    fn add(&mut self, lits: &[Lit]) {
        self.load(lits);
        varisat::ExtendFormula::add_clause(&mut self.solver, &self.buf);
    }

    fn run(&mut self, assumptions: &[Lit]) -> SolveResult {
        if self.broken {
            return SolveResult::Interrupted;
        }
        self.load(assumptions);
        self.solver.assume(&self.buf);
        match self.solver.solve() {
            Ok(true) if self.take_model() => SolveResult::Sat,
            Ok(false) if self.take_core() => SolveResult::Unsat,
            Ok(_) => SolveResult::Interrupted,
            Err(e) => {
                self.broken = !e.is_recoverable();
                SolveResult::Interrupted
            }
        }
    }

    fn model(&self, lit: Lit) -> Result<Option<bool>, SatError> {
        let v = self.model.get(lit.var().index()).copied().flatten();
        Ok(v.map(|b| b ^ lit.is_negated()))
    }

    fn core(&self, lit: Lit) -> Result<bool, SatError> {
        Ok(self.core.binary_search(&lit).is_ok())
    }
}
