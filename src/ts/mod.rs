//! Transition systems.
//!
//! [`System`] is the bit-level system every SAT engine works on. It has DimSpec semantics
//! (`S = (Σ, I, U, G, T)`): `n` variables per state, clause sets `init` (I), `constraints` (U),
//! `bad` (G) over `0..n`, and `trans` (T) over `0..2n`, where variable `n + k` is the next-state
//! copy of variable `k`. A path is a sequence of full valuations `s_0 … s_k` with `I(s_0)`,
//! `U(s_i)` for every `i`, `T(s_i, s_{i+1})`, and it reaches the goal when `G(s_k)`.
//!
//! AIGER circuits are translated into this form by Tseitin encoding (inputs and gates become
//! per-state variables that `T`, `U` and `G` define), which matches AIGER 1.9's semantics:
//! invariant constraints hold in every state up to and including the bad one.
//!
//! Invariant: every clause of `init`, `constraints`, `bad` mentions only variables `< n`, and
//! every clause of `trans` only variables `< 2n`.

pub mod aiger;
pub mod btor2;
pub mod dimspec;
pub mod eliminate;
pub mod invariants;
pub mod lcorr;
pub mod lockstep;
pub mod model;
pub mod poly;
pub mod program;
pub mod simulate;
pub mod step;
pub mod sweep;
pub mod templates;
pub mod vmt;
pub mod word_export;

use crate::cnf::Cnf;
use crate::sat::{Lit, Var};

/// A bit-level transition system with DimSpec semantics.
#[derive(Clone, Debug, Default)]
pub struct System {
    /// The number of variables per state (`n`).
    pub num_vars: u32,
    /// Initial-state clauses (I), over `0..n`.
    pub init: Cnf,
    /// Clauses every state satisfies (U), over `0..n`.
    pub constraints: Cnf,
    /// Goal (bad-state) clauses (G), over `0..n`.
    pub bad: Cnf,
    /// Transition clauses (T), over `0..2n`.
    pub trans: Cnf,
    /// A name per variable, where one is known (program variable bits, latch symbols).
    pub names: Vec<Option<String>>,
    /// What predecessor lifting needs, given only when it is sound for this system: `T` is
    /// functional (every next-state latch is determined by the current latches and the
    /// inputs), every other non-latch variable is defined by `U` from latches and inputs, and
    /// `U` is those definitions followed by one unit clause per constraint literal. `None` for
    /// DimSpec input.
    pub lifting: Option<Lifting>,
    /// `U` restricts nothing: every valuation of the variables it does not define extends to a
    /// model of `U` (it only holds gate definitions). Engines may then leave `U` out where it
    /// would only define unused gates, e.g. in the next-state copy of a relative-induction query.
    pub u_total: bool,
}

/// The structure predecessor lifting relies on ([`System::lifting`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lifting {
    /// The primary inputs.
    pub inputs: Vec<Var>,
    /// The constraint literals, whose unit clauses end `U`.
    pub constraints: Vec<Lit>,
}

impl System {
    /// How many clauses at the start of `U` are gate definitions (the rest are the unit
    /// clauses of [`Lifting::constraints`]); `None` without [`System::lifting`], or when `U`
    /// is shorter than its constraints.
    pub fn definitions_len(&self) -> Option<usize> {
        let lifting = self.lifting.as_ref()?;
        self.constraints
            .len()
            .checked_sub(lifting.constraints.len())
    }

    /// The system with `U` cut down to its gate definitions (the unit clauses of
    /// [`Lifting::constraints`] left out), for a lifting query that must force the constraints
    /// itself; `None` without [`System::lifting`].
    pub fn definitions_only(&self) -> Option<System> {
        let keep = self.definitions_len()?;
        let mut defs = Cnf::new();
        defs.reserve_vars(self.constraints.num_vars());
        for c in self.constraints.iter().take(keep) {
            defs.push(c);
        }
        Some(System {
            constraints: defs,
            u_total: true,
            ..self.clone()
        })
    }
}

/// A path of the system: one full valuation (`n` booleans) per state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub states: Vec<Vec<bool>>,
}

/// Why a plan is not a path to the goal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("the plan has no state")]
    Empty,
    #[error("state {state} has {got} values, expected {expected}")]
    WrongWidth {
        state: usize,
        got: usize,
        expected: usize,
    },
    #[error("the first state violates initial clause {clause}")]
    Init { clause: usize },
    #[error("state {state} violates constraint clause {clause}")]
    Constraint { state: usize, clause: usize },
    #[error("the step from state {state} violates transition clause {clause}")]
    Trans { state: usize, clause: usize },
    #[error("the last state violates goal clause {clause}")]
    Goal { clause: usize },
}

impl System {
    /// `n` as a `usize`.
    pub fn n(&self) -> usize {
        self.num_vars as usize
    }

    /// The variables whose next-state copy occurs in `trans`, in increasing order: the part of
    /// a state that the transition relation carries over. The other variables are chosen
    /// afresh in every state (inputs and gate outputs).
    pub fn latch_vars(&self) -> Vec<Var> {
        let n = self.num_vars;
        let mut mark = vec![false; self.n()];
        for c in self.trans.iter() {
            for l in c {
                if l.var().0 >= n {
                    mark[(l.var().0 - n) as usize] = true;
                }
            }
        }
        (0..n).filter(|&v| mark[v as usize]).map(Var).collect()
    }

    /// The variables two states must differ in for a path to be loop-free in the sense that
    /// matters for k-induction: the latches and every variable that `init` mentions (a path
    /// can be shortened between two states that agree on these).
    pub fn simple_path_vars(&self) -> Vec<Var> {
        let mut mark = vec![false; self.n()];
        for v in self.latch_vars() {
            mark[v.index()] = true;
        }
        for c in self.init.iter() {
            for l in c {
                mark[l.var().index()] = true;
            }
        }
        (0..self.num_vars)
            .filter(|&v| mark[v as usize])
            .map(Var)
            .collect()
    }

    /// Check that `plan` is a path from an initial state to a goal state.
    pub fn check_plan(&self, plan: &Plan) -> Result<(), PlanError> {
        let n = self.n();
        let Some(first) = plan.states.first() else {
            return Err(PlanError::Empty);
        };
        for (i, s) in plan.states.iter().enumerate() {
            if s.len() != n {
                return Err(PlanError::WrongWidth {
                    state: i,
                    got: s.len(),
                    expected: n,
                });
            }
        }
        if let Some(c) = self.init.first_violated(|v| first[v.index()]) {
            return Err(PlanError::Init { clause: c });
        }
        for (i, s) in plan.states.iter().enumerate() {
            if let Some(c) = self.constraints.first_violated(|v| s[v.index()]) {
                return Err(PlanError::Constraint {
                    state: i,
                    clause: c,
                });
            }
        }
        for (i, w) in plan.states.windows(2).enumerate() {
            let value = |v: Var| {
                let k = v.index();
                if k < n {
                    w[0][k]
                } else {
                    w[1][k - n]
                }
            };
            if let Some(c) = self.trans.first_violated(value) {
                return Err(PlanError::Trans {
                    state: i,
                    clause: c,
                });
            }
        }
        let last = &plan.states[plan.states.len() - 1];
        if let Some(c) = self.bad.first_violated(|v| last[v.index()]) {
            return Err(PlanError::Goal { clause: c });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::Lit;

    /// The two-bit counter of formats.md §6.5: x0 low bit, x1 high bit, goal 11.
    pub(crate) fn counter() -> System {
        let d = |x: i32| Lit::from_dimacs(x);
        let mut s = System {
            num_vars: 2,
            ..System::default()
        };
        s.init.push(&[d(-1)]);
        s.init.push(&[d(-2)]);
        s.bad.push(&[d(1)]);
        s.bad.push(&[d(2)]);
        for c in [
            [1, 3, 0],
            [-1, -3, 0],
            [-2, -1, -4],
            [-2, 1, 4],
            [2, -1, 4],
            [2, 1, -4],
        ] {
            let lits: Vec<Lit> = c.iter().filter(|&&x| x != 0).map(|&x| d(x)).collect();
            s.trans.push(&lits);
        }
        s
    }

    #[test]
    fn plan_checking() {
        let s = counter();
        assert_eq!(s.latch_vars(), vec![Var(0), Var(1)]);
        let ok = Plan {
            states: vec![
                vec![false, false],
                vec![true, false],
                vec![false, true],
                vec![true, true],
            ],
        };
        assert_eq!(s.check_plan(&ok), Ok(()));
        let mut skip = ok.clone();
        skip.states.remove(1);
        assert_eq!(
            s.check_plan(&skip),
            Err(PlanError::Trans {
                state: 0,
                clause: 0
            })
        );
        let mut short = ok.clone();
        short.states.pop();
        assert!(matches!(s.check_plan(&short), Err(PlanError::Goal { .. })));
        let mut bad_init = ok;
        bad_init.states[0][1] = true;
        assert!(matches!(
            s.check_plan(&bad_init),
            Err(PlanError::Init { .. })
        ));
    }
}
