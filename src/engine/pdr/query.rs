//! The SAT side of PDR: one solver per frame holding `U(x) ∧ T(x, x') ∧ U(x')` plus the frame's
//! lemmas, a solver for "does this cube contain an initial state", and a lifting solver.
//!
//! Cubes are sorted vectors of literals over the system's current-state variables (latches).
//! A lemma is the clause `¬cube`.

use super::Cube;
use crate::engine::unroll::{conjunction_literal, Unrolling};
use crate::sat::Backend;
use crate::sat::{Interrupter, Lit, SolveResult, Solver, Var};
use crate::ts::System;
use std::time::{Duration, Instant};

/// The result of a relative-induction query.
pub enum RelInd {
    /// `F ∧ ¬c ∧ T ⇒ ¬c'` holds; the cube shrunk to the literals the proof used.
    Holds(Cube),
    /// A predecessor: the full latch state, and the values of every current-state variable.
    Pred(Cube, Vec<bool>),
}

/// The query was interrupted.
#[derive(Debug)]
pub struct Interrupted;

/// SAT call counters shared by every solver of a PDR run.
#[derive(Default, Debug, Clone)]
pub struct SatStats {
    pub calls: u64,
    pub time: Duration,
}

/// A solver with one copy of the current and the next state.
pub struct PairSolver {
    solver: Box<dyn Solver>,
    cur: Vec<Lit>,
    next: Vec<Lit>,
    goal: Option<Lit>,
    /// Switches on `T(x, x') ∧ U(x')`: queries about a successor assume it, the bad-state
    /// query does not (a goal state need not have a successor).
    step: Lit,
    /// How many temporary clauses (switched off by a unit after use) the solver holds.
    retired: usize,
}

fn timed(stats: &mut SatStats, s: &mut dyn Solver, assumptions: &[Lit]) -> SolveResult {
    let t = Instant::now();
    let r = s.solve(assumptions);
    stats.calls += 1;
    stats.time += t.elapsed();
    r
}

impl PairSolver {
    /// A solver over `U(x) ∧ T(x, x') ∧ U(x')`, with `I(x)` when `with_init`.
    pub fn new(sys: &System, backend: Backend, intr: &Interrupter, with_init: bool) -> PairSolver {
        let mut solver = backend.create(intr);
        let mut un = Unrolling::new(sys);
        un.push_state(solver.as_mut());
        if with_init {
            un.add_section(solver.as_mut(), &sys.init, 0);
        }
        let step = solver.new_var().pos();
        un.push_state_guarded(solver.as_mut(), !step, !sys.u_total);
        PairSolver {
            cur: un.frame(0).to_vec(),
            next: un.frame(1).to_vec(),
            solver,
            goal: None,
            step,
            retired: 0,
        }
    }

    /// A solver over `I(x) ∧ U(x)` only (for the initial-state checks).
    pub fn init_only(sys: &System, backend: Backend, intr: &Interrupter) -> PairSolver {
        let mut solver = backend.create(intr);
        let mut un = Unrolling::new(sys);
        un.push_state(solver.as_mut());
        un.add_section(solver.as_mut(), &sys.init, 0);
        let step = solver.new_var().pos();
        PairSolver {
            cur: un.frame(0).to_vec(),
            next: Vec::new(),
            solver,
            goal: None,
            step,
            retired: 0,
        }
    }

    fn cur_lit(&self, l: Lit) -> Lit {
        self.cur[l.var().index()].xor_sign(l.is_negated())
    }

    fn next_lit(&self, l: Lit) -> Lit {
        self.next[l.var().index()].xor_sign(l.is_negated())
    }

    /// How many temporary clauses the solver holds (a reason to rebuild it).
    pub fn retired(&self) -> usize {
        self.retired
    }

    /// Add the lemma `¬cube` over the current state.
    pub fn add_lemma(&mut self, cube: &[Lit]) {
        let clause: Vec<Lit> = cube.iter().map(|&l| !self.cur_lit(l)).collect();
        self.solver.add_clause(&clause);
    }

    /// The literal "the current state is a goal state", encoded on first use.
    fn goal(&mut self, sys: &System) -> Lit {
        if let Some(g) = self.goal {
            return g;
        }
        let g = conjunction_literal(self.solver.as_mut(), &sys.bad, &self.cur);
        self.goal = Some(g);
        g
    }

    /// Is there a goal state in this frame? Returns the values of the current state.
    pub fn bad_state(
        &mut self,
        sys: &System,
        st: &mut SatStats,
    ) -> Result<Option<Vec<bool>>, Interrupted> {
        let g = self.goal(sys);
        match timed(st, self.solver.as_mut(), &[g]) {
            SolveResult::Sat => Ok(Some(self.cur_values())),
            SolveResult::Unsat => Ok(None),
            SolveResult::Interrupted => Err(Interrupted),
        }
    }

    fn cur_values(&self) -> Vec<bool> {
        self.cur
            .iter()
            .map(|&l| self.solver.model_value(l))
            .collect()
    }

    /// Relative induction of `cube`: `F ∧ ¬cube ∧ T ∧ cube'`. With `strengthen` false the
    /// `¬cube` conjunct is left out.
    pub fn relind(
        &mut self,
        cube: &[Lit],
        latches: &[Var],
        strengthen: bool,
        st: &mut SatStats,
    ) -> Result<RelInd, Interrupted> {
        let mut assumptions: Vec<Lit> = cube.iter().map(|&l| self.next_lit(l)).collect();
        assumptions.push(self.step);
        let act = if strengthen {
            let a = self.solver.new_var().pos();
            let mut clause: Vec<Lit> = cube.iter().map(|&l| !self.cur_lit(l)).collect();
            clause.push(!a);
            self.solver.add_clause(&clause);
            assumptions.push(a);
            Some(a)
        } else {
            None
        };
        let r = timed(st, self.solver.as_mut(), &assumptions);
        let out = match r {
            SolveResult::Unsat => {
                let mut core = Vec::with_capacity(cube.len());
                for &l in cube {
                    if self.solver.failed(self.next_lit(l)).unwrap_or(true) {
                        core.push(l);
                    }
                }
                Ok(RelInd::Holds(core))
            }
            SolveResult::Sat => {
                let vals = self.cur_values();
                let pred = latches
                    .iter()
                    .map(|&v| Lit::new(v, !vals[v.index()]))
                    .collect();
                Ok(RelInd::Pred(pred, vals))
            }
            SolveResult::Interrupted => Err(Interrupted),
        };
        if let Some(a) = act {
            self.solver.add_clause(&[!a]);
            self.retired += 1;
        }
        out
    }

    /// Is `cube ∧ I ∧ U` satisfiable (for a solver made by [`PairSolver::init_only`])?
    pub fn intersects(&mut self, cube: &[Lit], st: &mut SatStats) -> Result<bool, Interrupted> {
        let assumptions: Vec<Lit> = cube.iter().map(|&l| self.cur_lit(l)).collect();
        match timed(st, self.solver.as_mut(), &assumptions) {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Interrupted => Err(Interrupted),
        }
    }

    /// Lift a state: the smallest part of `state` (a full latch cube) that, with `inputs` fixed
    /// to `vals`, forces the successor into `target` (or, when `target` is `None`, makes the
    /// state a goal state). Falls back to the full state when the query is satisfiable.
    pub fn lift(
        &mut self,
        sys: &System,
        state: &[Lit],
        inputs: &[Var],
        vals: &[bool],
        target: Option<&[Lit]>,
        st: &mut SatStats,
    ) -> Result<Cube, Interrupted> {
        let mut assumptions: Vec<Lit> = state.iter().map(|&l| self.cur_lit(l)).collect();
        assumptions.extend(
            inputs
                .iter()
                .map(|&v| self.cur_lit(Lit::new(v, !vals[v.index()]))),
        );
        let act = match target {
            Some(t) => {
                assumptions.push(self.step);
                let a = self.solver.new_var().pos();
                let mut clause: Vec<Lit> = t.iter().map(|&l| !self.next_lit(l)).collect();
                clause.push(!a);
                self.solver.add_clause(&clause);
                assumptions.push(a);
                Some(a)
            }
            None => {
                let g = self.goal(sys);
                assumptions.push(!g);
                None
            }
        };
        let r = timed(st, self.solver.as_mut(), &assumptions);
        let out = match r {
            SolveResult::Unsat => Ok(state
                .iter()
                .copied()
                .filter(|&l| self.solver.failed(self.cur_lit(l)).unwrap_or(true))
                .collect()),
            SolveResult::Sat => Ok(state.to_vec()),
            SolveResult::Interrupted => Err(Interrupted),
        };
        if let Some(a) = act {
            self.solver.add_clause(&[!a]);
            self.retired += 1;
        }
        out
    }
}
