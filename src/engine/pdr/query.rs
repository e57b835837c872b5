//! The SAT side of PDR: one solver per frame holding `U(x) ∧ T(x, x') ∧ U(x')` plus the frame's
//! lemmas, a solver for "does this cube contain an initial state", and a lifting solver.
//!
//! Cubes are sorted vectors of literals over the system's current-state variables (latches).
//! A lemma is the clause `¬cube`.

use super::cone::{ConeIndex, Loaded, StateLits, Units};
use super::Cube;
use crate::engine::unroll::{conjunction_literal, Unrolling};
use crate::sat::Backend;
use crate::sat::{Interrupter, Lit, SolveResult, Solver, Var};
use crate::ts::{Lifting, System};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The result of a relative-induction query.
pub enum RelInd {
    /// `F ∧ ¬c ∧ T ⇒ ¬c'` holds; the cube shrunk to the literals the proof used.
    Holds(Cube),
    /// A predecessor: the full latch state, and the values of every current-state variable.
    Pred(Cube, Vec<bool>),
}

pub use crate::engine::Interrupted;

/// SAT call counters shared by every solver of a PDR run.
#[derive(Default, Debug, Clone)]
pub struct SatStats {
    pub calls: u64,
    pub time: Duration,
}

/// A solver with one copy of the current and the next state, holding `T` and `U` whole or
/// loading them on demand ([`Load`]).
pub struct PairSolver {
    solver: Box<dyn Solver>,
    cur: StateLits,
    next: StateLits,
    goal: Option<Lit>,
    /// Switches on `T(x, x') ∧ U(x')`: queries about a successor assume it, the bad-state
    /// query does not (a goal state need not have a successor).
    step: Lit,
    /// How many temporary clauses (switched off by a unit after use) the solver holds.
    retired: usize,
    /// What is loaded of `T` and `U` when they are loaded on demand ([`cone`]).
    loaded: Option<Loaded>,
}

/// How a solver holds `T` and `U`: whole, or cone by cone as queries need them.
#[derive(Clone)]
pub enum Load {
    Whole,
    OnDemand(Arc<ConeIndex>),
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
    pub fn new(
        sys: &System,
        backend: Backend,
        intr: &Interrupter,
        with_init: bool,
        load: &Load,
    ) -> PairSolver {
        Self::build(sys, backend, intr, with_init, load, true, Units::Enforced)
    }

    /// A solver for lifting ([`PairSolver::lift`]): `U(x)` without its constraints, which the
    /// lifting query asks for itself.
    pub fn lifter(
        sys: &System,
        backend: Backend,
        intr: &Interrupter,
        load: &Load,
    ) -> Option<PairSolver> {
        match load {
            Load::Whole => {
                let defs = sys.definitions_only()?;
                Some(Self::build(
                    &defs,
                    backend,
                    intr,
                    false,
                    load,
                    true,
                    Units::Enforced,
                ))
            }
            Load::OnDemand(_) => Some(Self::build(
                sys,
                backend,
                intr,
                false,
                load,
                true,
                Units::ConesOnly,
            )),
        }
    }

    /// A solver over `I(x) ∧ U(x)` only (for the initial-state checks).
    pub fn init_only(
        sys: &System,
        backend: Backend,
        intr: &Interrupter,
        load: &Load,
    ) -> PairSolver {
        Self::build(sys, backend, intr, true, load, false, Units::Enforced)
    }

    fn build(
        sys: &System,
        backend: Backend,
        intr: &Interrupter,
        with_init: bool,
        load: &Load,
        with_step: bool,
        units: Units,
    ) -> PairSolver {
        let mut solver = backend.create(intr);
        let (cur, next, step, loaded) = match load {
            Load::Whole => {
                let mut un = Unrolling::new(sys);
                un.push_state(solver.as_mut());
                if with_init {
                    un.add_section(solver.as_mut(), &sys.init, 0);
                }
                let step = solver.new_var().pos();
                if with_step {
                    un.push_state_guarded(solver.as_mut(), !step, !sys.u_total);
                }
                let next = if with_step {
                    un.frame(1).to_vec()
                } else {
                    Vec::new()
                };
                (
                    StateLits::made(un.frame(0).to_vec()),
                    StateLits::made(next),
                    step,
                    None,
                )
            }
            Load::OnDemand(index) => {
                let n = sys.n();
                let mut cur = StateLits::lazy(n);
                if with_init {
                    let mut buf = Vec::new();
                    for c in sys.init.iter() {
                        buf.clear();
                        buf.extend(c.iter().map(|&l| cur.lit(solver.as_mut(), l)));
                        solver.add_clause(&buf);
                    }
                }
                let step = solver.new_var().pos();
                let mut next = StateLits::lazy(if with_step { n } else { 0 });
                let loaded = Loaded::new(
                    Arc::clone(index),
                    solver.as_mut(),
                    &mut cur,
                    &mut next,
                    step,
                    units,
                    sys.u_total,
                );
                (cur, next, step, Some(loaded))
            }
        };
        PairSolver {
            cur,
            next,
            solver,
            goal: None,
            step,
            retired: 0,
            loaded,
        }
    }

    /// Whether a current-state variable occurs in the solver's clauses (always, when the
    /// solver holds `T` and `U` whole).
    fn mentioned(&self, v: Var) -> bool {
        self.loaded.as_ref().is_none_or(|l| l.has_cur(v))
    }

    /// Loads (when loading on demand) what the literals `lits` of the next state (or the
    /// current one) depend on.
    fn need(&mut self, lits: &[Lit], in_next: bool) {
        if let Some(l) = &mut self.loaded {
            for &x in lits {
                l.ensure(
                    self.solver.as_mut(),
                    &mut self.cur,
                    &mut self.next,
                    in_next,
                    x.var(),
                );
            }
        }
    }

    fn cur_lit(&mut self, l: Lit) -> Lit {
        self.cur.lit(self.solver.as_mut(), l)
    }

    fn next_lit(&mut self, l: Lit) -> Lit {
        self.next.lit(self.solver.as_mut(), l)
    }

    /// How many variables the solver has made.
    pub fn num_vars(&self) -> u32 {
        self.solver.num_vars()
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
        let vars: Vec<Lit> = sys.bad.iter().flatten().copied().collect();
        self.need(&vars, false);
        for &l in &vars {
            self.cur_lit(l);
        }
        let cur = &self.cur;
        let g = conjunction_literal(self.solver.as_mut(), &sys.bad, |v| {
            cur.get(v.pos()).expect("made above")
        });
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
        self.cur.values(self.solver.as_ref())
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
        self.need(cube, true);
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
                    let x = self.next.get(l).expect("assumed");
                    if self.solver.failed(x).unwrap_or(true) {
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

    /// Lift a state: the smallest part of `state` (a full latch cube) that, with the inputs
    /// fixed to `vals`, forces every constraint of `lifting` and the successor into `target`
    /// (or, when `target` is `None`, makes the state a goal state). Falls back to the full state
    /// when the query is satisfiable. For a solver over the gate definitions of `U` only
    /// ([`System::definitions_only`]).
    pub fn lift(
        &mut self,
        sys: &System,
        state: &[Lit],
        lifting: &Lifting,
        vals: &[bool],
        target: Option<&[Lit]>,
        st: &mut SatStats,
    ) -> Result<Cube, Interrupted> {
        // Unsatisfiable with the clause "not all constraints hold, or not the goal": every
        // state of the lifted cube meets them all under these inputs.
        let mut clause: Vec<Lit> = lifting
            .constraints
            .iter()
            .map(|&c| !self.cur_lit(c))
            .collect();
        let mut assumptions = Vec::new();
        match target {
            Some(t) => {
                self.need(t, true);
                assumptions.push(self.step);
                clause.extend(t.iter().map(|&l| !self.next_lit(l)));
            }
            None => {
                let g = self.goal(sys);
                clause.push(!g);
            }
        }
        // Only what the loaded clauses mention can matter (the rest is never in the core):
        // the others are not assumed, which saves a decision level each.
        let kept: Vec<Lit> = state
            .iter()
            .copied()
            .filter(|l| self.mentioned(l.var()))
            .collect();
        assumptions.extend(kept.iter().map(|&l| self.cur_lit(l)));
        let inputs: Vec<Lit> = lifting
            .inputs
            .iter()
            .filter(|&&v| self.mentioned(v))
            .map(|&v| Lit::new(v, !vals[v.index()]))
            .collect();
        assumptions.extend(inputs.into_iter().map(|l| self.cur_lit(l)));
        let a = self.solver.new_var().pos();
        clause.push(!a);
        self.solver.add_clause(&clause);
        assumptions.push(a);
        let r = timed(st, self.solver.as_mut(), &assumptions);
        let out = match r {
            SolveResult::Unsat => Ok(kept
                .into_iter()
                .filter(|&l| {
                    let x = self.cur.get(l).expect("assumed");
                    self.solver.failed(x).unwrap_or(true)
                })
                .collect()),
            SolveResult::Sat => Ok(state.to_vec()),
            SolveResult::Interrupted => Err(Interrupted),
        };
        self.solver.add_clause(&[!a]);
        self.retired += 1;
        out
    }
}
