//! splr 0.17 (pure Rust) behind the [`Solver`] trait, for one-shot queries (certificate checks,
//! BMC at a fixed bound).
//!
//! splr has no assumption API and its incremental mode is a build feature with known panics, so
//! [`SplrSolver`] keeps the clause list and builds a **fresh** splr solver for every `solve`,
//! with the assumptions added as unit clauses.
//!
//! Limits:
//! - not incremental: every solve starts from scratch (cost grows with the clause list);
//! - no core: after UNSAT, `failed` is `true` for every assumption of the last solve (the
//!   whole assumption set is a valid, if trivial, core);
//! - **no interrupt**: a raised [`Interrupter`] is only seen before a solve starts (it then
//!   answers `Interrupted` at once). splr's own timeout is whole seconds and is left at its
//!   default (5000 s);
//! - splr's quirks are mapped to answers, never to panics: an empty clause is answered UNSAT
//!   without calling splr; splr's "empty clause"/"root-level conflict" while loading is UNSAT;
//!   every other splr error, a panic inside splr (caught; the panic hook still prints it, and
//!   this needs the default `panic = "unwind"`), or a model that does not satisfy our clause
//!   list (checked on every SAT answer) gives `Interrupted`, never a wrong answer;
//! - no preprocessing across solves, so [`Solver::freeze`]/[`Solver::melt`] are no-ops;
//! - threading: [`SplrSolver`] is `Send` and `Sync` (it holds only the clause list).

use std::panic::{catch_unwind, AssertUnwindSafe};

use splr::{Certificate, SolveIF, SolverError};

use super::common::{RawSolver, Tracker};
use super::{Capabilities, Interrupter, Lit, SatError, SolveResult};

/// The clause list behind the [`Solver`] trait, solved by a fresh splr per query.
pub struct SplrSolver {
    tracker: Tracker,
    /// Every clause added so far, in DIMACS form (none is empty).
    clauses: Vec<Vec<i32>>,
    /// An empty clause was added: every solve answers UNSAT.
    has_empty: bool,
    /// The model of the last SAT answer, indexed by variable.
    model: Vec<Option<bool>>,
}

/// What one splr run says about a clause list.
enum Outcome {
    /// A model as DIMACS literals.
    Sat(Vec<i32>),
    Unsat,
    /// An error or a panic inside splr: no answer.
    Unknown,
}

/// Run a fresh splr on `clauses` (none of them empty).
fn run_splr(clauses: &[Vec<i32>]) -> Outcome {
    if clauses.is_empty() {
        return Outcome::Sat(Vec::new());
    }
    let config = splr::Config {
        quiet_mode: true,
        ..splr::Config::default()
    };
    let run = || match splr::Solver::try_from((config, clauses)) {
        Ok(mut solver) => match solver.solve() {
            Ok(Certificate::SAT(model)) => Outcome::Sat(model),
            Ok(Certificate::UNSAT) => Outcome::Unsat,
            Err(_) => Outcome::Unknown,
        },
        // Loading found a root-level conflict (units contradicting each other or a clause).
        Err(Ok(Certificate::UNSAT)) | Err(Err(SolverError::EmptyClause)) => Outcome::Unsat,
        Err(Ok(Certificate::SAT(model))) => Outcome::Sat(model),
        Err(Err(_)) => Outcome::Unknown,
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or(Outcome::Unknown)
}

/// Whether the DIMACS `model` satisfies every clause.
fn satisfies(clauses: &[Vec<i32>], model: &[Option<bool>]) -> bool {
    clauses.iter().all(|clause| {
        clause.iter().any(|&d| {
            let var = d.unsigned_abs() as usize - 1;
            model.get(var).copied().flatten() == Some(d > 0)
        })
    })
}

impl SplrSolver {
    /// A fresh solver; `interrupter` is checked before each solve only.
    pub fn new(interrupter: Interrupter) -> SplrSolver {
        SplrSolver {
            tracker: Tracker::new("splr", interrupter),
            clauses: Vec::new(),
            has_empty: false,
            model: Vec::new(),
        }
    }

    /// Decode splr's model into `self.model`.
    fn store_model(&mut self, dimacs: &[i32]) {
        self.model.clear();
        self.model.resize(self.tracker.num_vars() as usize, None);
        for &d in dimacs {
            if d != 0 {
                if let Some(slot) = self.model.get_mut(d.unsigned_abs() as usize - 1) {
                    *slot = Some(d > 0);
                }
            }
        }
    }
}

impl RawSolver for SplrSolver {
    const NAME: &'static str = "splr";
    const CAPABILITIES: Capabilities = Capabilities {
        incremental: false,
        assumptions: false,
        core: false,
        interruptible: false,
    };

    fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    fn tracker_mut(&mut self) -> &mut Tracker {
        &mut self.tracker
    }

    fn add(&mut self, lits: &[Lit]) {
        if lits.is_empty() {
            self.has_empty = true;
        } else {
            self.clauses
                .push(lits.iter().map(|l| l.to_dimacs()).collect());
        }
    }

    fn run(&mut self, assumptions: &[Lit]) -> SolveResult {
        if self.has_empty {
            return SolveResult::Unsat;
        }
        let base = self.clauses.len();
        self.clauses
            .extend(assumptions.iter().map(|l| vec![l.to_dimacs()]));
        let result = match run_splr(&self.clauses) {
            Outcome::Sat(dimacs) => {
                self.store_model(&dimacs);
                if satisfies(&self.clauses, &self.model) {
                    SolveResult::Sat
                } else {
                    SolveResult::Interrupted
                }
            }
            Outcome::Unsat => SolveResult::Unsat,
            Outcome::Unknown => SolveResult::Interrupted,
        };
        self.clauses.truncate(base);
        result
    }

    fn model(&self, lit: Lit) -> Result<Option<bool>, SatError> {
        let v = self.model.get(lit.var().index()).copied().flatten();
        Ok(v.map(|b| b ^ lit.is_negated()))
    }

    fn core(&self, _lit: Lit) -> Result<bool, SatError> {
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loading_conflicts_are_unsat() {
        // Contradicting units: splr reports the conflict while loading.
        assert!(matches!(run_splr(&[vec![1], vec![-1]]), Outcome::Unsat));
        // A clause whose literals are all false under earlier units.
        let clauses = [vec![1], vec![2], vec![-1, -2]];
        assert!(matches!(run_splr(&clauses), Outcome::Unsat));
    }

    #[test]
    fn trivial_lists_are_sat() {
        assert!(matches!(run_splr(&[]), Outcome::Sat(m) if m.is_empty()));
        assert!(matches!(run_splr(&[vec![3]]), Outcome::Sat(m) if m.contains(&3)));
    }

    #[test]
    fn the_model_check_rejects_a_wrong_model() {
        let clauses = [vec![1, -2], vec![2]];
        assert!(satisfies(&clauses, &[Some(true), Some(true)]));
        assert!(!satisfies(&clauses, &[Some(false), Some(true)]));
        assert!(!satisfies(&clauses, &[Some(true)]));
        assert!(!satisfies(&clauses, &[None, None]));
    }
}
