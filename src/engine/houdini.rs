//! Houdini (Flanagan, Leino 2001): the largest subset of candidate invariants that is inductive
//! as a whole.
//!
//! Candidates are AIG literals over the latches of a [`Model`]. A candidate that some initial
//! state violates is dropped first. Then, while the surviving set `H` is not inductive, a model
//! of `U ∧ H ∧ T ∧ U' ∧ ¬H'` shows successors that violate some candidates, and every candidate
//! false in that successor is dropped. What remains holds in the initial states and is preserved
//! by every transition, so it holds in every reachable state.
//!
//! With the words of the model at hand, each counterexample to induction is amplified: the
//! model's current state `s` satisfies every surviving candidate, so it satisfies the largest
//! inductive subset `H*` (a subset of them), and so does every state reachable from `s`, since
//! `H*` is inductive. A candidate false in any state that random simulation reaches from `s`
//! (or from an initial state, where the simulation restarts) is therefore not in `H*` and can
//! be dropped without a SAT call.
//!
//! [`is_inductive`] re-checks a set with a fresh solver (the caller picks a different backend),
//! so a result is never used on the word of one solver.
//!
//! Both encode the model twice with [`Tseitin`]: the current state, whose latches are fresh
//! variables, and the next state, whose latches are the current state's next-state functions.

use super::Interrupted;
use crate::aig::AigLit;
use crate::cnf::Tseitin;
use crate::sat::{Backend, Interrupter, Lit, SolveResult, Solver};
use crate::ts::model::Model;
use crate::ts::model::Words;
use crate::ts::simulate::{self, Simulation};
use std::mem::ManuallyDrop;

/// A solver holding `U(x) ∧ T(x, x') ∧ U(x')` of a model, with `I(x)` switched on by `init`.
/// Dropped after its interrupter was raised, it hands its solver to
/// [`super::graveyard::keep`] instead of freeing it: freeing the solver of a large model takes
/// seconds, and a stopped run must answer at once ([`release_unless_stopped`] frees it when the
/// run goes on).
struct TwoStates<'m> {
    model: &'m Model,
    solver: ManuallyDrop<Box<dyn Solver>>,
    cur: Tseitin,
    next: Tseitin,
    init: Lit,
}

impl<'m> TwoStates<'m> {
    /// The solver of `model`, or `Err` when `intr` is raised while it is built (a model of
    /// thousands of latches takes seconds to encode).
    fn new(
        model: &'m Model,
        backend: Backend,
        intr: &Interrupter,
    ) -> Result<TwoStates<'m>, Interrupted> {
        let mut solver = backend.create(intr);
        let init = solver.new_var().pos();
        let mut s = TwoStates {
            model,
            solver: ManuallyDrop::new(solver),
            cur: Tseitin::new(),
            next: Tseitin::new(),
            init,
        };
        let stopped = |j: usize| j.is_multiple_of(POLL_LATCHES) && intr.is_interrupted();
        for (j, l) in model.latches.iter().enumerate() {
            if stopped(j) {
                return Err(Interrupted);
            }
            let x = s.cur(l.node);
            if let Some(r) = l.reset {
                s.solver.add_clause(&[!init, x.xor_sign(!r)]);
            }
        }
        for (j, l) in model.latches.iter().enumerate() {
            if stopped(j) {
                return Err(Interrupted);
            }
            let f = s.cur(l.next);
            s.next.bind(l.node.var(), f.xor_sign(l.node.is_negated()));
        }
        for &c in &model.constraints {
            let a = s.cur(c);
            s.solver.add_clause(&[a]);
            let b = s.next(c);
            s.solver.add_clause(&[b]);
        }
        Ok(s)
    }

    fn cur(&mut self, c: AigLit) -> Lit {
        self.cur.encode(&self.model.aig, self.solver.as_mut(), c)
    }

    fn next(&mut self, c: AigLit) -> Lit {
        self.next.encode(&self.model.aig, self.solver.as_mut(), c)
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, Interrupted> {
        match self.solver.solve(assumptions) {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Interrupted => Err(Interrupted),
        }
    }
}

/// What [`houdini`] found.
#[derive(Clone, Debug)]
pub struct HoudiniResult {
    /// For each candidate, whether it survived.
    pub holds: Vec<bool>,
    /// SAT calls made.
    pub sat_calls: usize,
}

/// One query: a model of `assume ∧ ¬∧ check`, given as which `check` literals it makes false,
/// or `None` when there is none.
fn violated(
    s: &mut TwoStates<'_>,
    check: &[Lit],
    assume: &[Lit],
) -> Result<Option<Vec<bool>>, Interrupted> {
    let act = s.solver.new_var().pos();
    let mut clause: Vec<Lit> = check.iter().map(|&l| !l).collect();
    clause.push(!act);
    s.solver.add_clause(&clause);
    let mut assumptions = assume.to_vec();
    assumptions.push(act);
    let r = s.solve(&assumptions);
    let out = match r {
        Ok(true) => Ok(Some(
            check.iter().map(|&l| !s.solver.model_value(l)).collect(),
        )),
        Ok(false) => Ok(None),
        Err(e) => Err(e),
    };
    s.solver.add_clause(&[!act]);
    out
}

/// Drop candidates until no model of `assume(alive) ∧ ¬∧ check[alive]` is left: each model
/// drops every alive candidate whose `check` literal it makes false, and then whatever
/// `amplify` drops given the model.
fn prune(
    s: &mut TwoStates<'_>,
    holds: &mut [bool],
    check: &[Lit],
    assume: impl Fn(&[usize]) -> Vec<Lit>,
    sat_calls: &mut usize,
    mut amplify: impl FnMut(&mut TwoStates<'_>, &mut [bool]),
) -> Result<(), Interrupted> {
    loop {
        let alive: Vec<usize> = (0..holds.len()).filter(|&i| holds[i]).collect();
        if alive.is_empty() {
            return Ok(());
        }
        let lits: Vec<Lit> = alive.iter().map(|&i| check[i]).collect();
        *sat_calls += 1;
        let Some(false_in_model) = violated(s, &lits, &assume(&alive))? else {
            return Ok(());
        };
        for (&i, f) in alive.iter().zip(false_in_model) {
            if f {
                holds[i] = false;
            }
        }
        amplify(s, holds);
    }
}

impl Drop for TwoStates<'_> {
    fn drop(&mut self) {
        // SAFETY: `solver` is taken once, here, and never used again.
        let solver = unsafe { ManuallyDrop::take(&mut self.solver) };
        if solver.interrupter().is_interrupted() {
            super::graveyard::keep(solver);
        }
    }
}

/// Free the solvers that stopped Houdini runs on this thread left behind, unless `run` (the
/// whole run's interrupter) is raised: then the process is about to answer and exit, and
/// freeing them would only delay it.
pub fn release_unless_stopped(run: &Interrupter) {
    if !run.is_interrupted() {
        super::graveyard::release();
    }
}

/// Drop every alive candidate that some state reached by random simulation from `state`
/// violates (see [`houdini`] on why this keeps the largest inductive subset), until `stop`
/// says so.
fn simulate_from(
    model: &Model,
    words: &Words,
    state: &[bool],
    seed: u64,
    cands: &[AigLit],
    holds: &mut [bool],
    stop: &dyn Fn() -> bool,
) {
    let mut sim = Simulation::new(model, words, seed);
    sim.set_state(state);
    simulate::run(&mut sim, AMPLIFY_STEPS, stop, |sim, valid| {
        for (h, &c) in holds.iter_mut().zip(cands) {
            if *h && !sim.lit(c) & valid != 0 {
                *h = false;
            }
        }
    });
}

/// How many latches [`TwoStates::new`] encodes between two looks at the interrupter.
const POLL_LATCHES: usize = 64;

/// Steps simulated from each counterexample to induction.
const AMPLIFY_STEPS: usize = 64;

/// The largest inductive subset of `cands`, or `Err` when interrupted.
pub fn houdini(
    model: &Model,
    cands: &[AigLit],
    words: Option<&Words>,
    backend: Backend,
    intr: &Interrupter,
) -> Result<HoudiniResult, Interrupted> {
    let mut s = TwoStates::new(model, backend, intr)?;
    let cur: Vec<Lit> = cands.iter().map(|&c| s.cur(c)).collect();
    let mut holds = vec![true; cands.len()];
    let mut sat_calls = 0;
    // Initial states: drop what some initial state violates.
    let init = s.init;
    prune(
        &mut s,
        &mut holds,
        &cur,
        |_| vec![init],
        &mut sat_calls,
        |_, _| {},
    )?;
    // Consecution: drop what a successor of an `H`-state violates, until nothing is. Only the
    // survivors of the first phase are encoded in the next state (the others keep their
    // current-state literal as a placeholder; `prune` reads only alive candidates).
    let next: Vec<Lit> = (0..cands.len())
        .map(|i| if holds[i] { s.next(cands[i]) } else { cur[i] })
        .collect();
    let in_h = |alive: &[usize]| alive.iter().map(|&i| cur[i]).collect();
    let mut seed = 0;
    let amplify = |s: &mut TwoStates<'_>, holds: &mut [bool]| {
        let Some(words) = words else { return };
        let state: Vec<bool> = model
            .latches
            .iter()
            .map(|l| {
                let x = s.cur(l.node);
                s.solver.model_value(x)
            })
            .collect();
        seed += 1;
        simulate_from(model, words, &state, seed, cands, holds, &|| {
            intr.is_interrupted()
        });
    };
    prune(&mut s, &mut holds, &next, in_h, &mut sat_calls, amplify)?;
    Ok(HoudiniResult { holds, sat_calls })
}

/// Whether the conjunction of `lits` holds in every initial state and is preserved by every
/// transition (under the model's constraints), checked by a fresh solver of `backend`.
pub fn is_inductive(
    model: &Model,
    lits: &[AigLit],
    backend: Backend,
    intr: &Interrupter,
) -> Result<bool, Interrupted> {
    if lits.is_empty() {
        return Ok(true);
    }
    let mut s = TwoStates::new(model, backend, intr)?;
    let cur: Vec<Lit> = lits.iter().map(|&c| s.cur(c)).collect();
    let next: Vec<Lit> = lits.iter().map(|&c| s.next(c)).collect();
    let init = s.init;
    if violated(&mut s, &cur, &[init])?.is_some() {
        return Ok(false);
    }
    // Consecution: the set holds in the current state (as unit clauses, which the solver
    // simplifies with, rather than as assumptions it decides again after every restart).
    for &c in &cur {
        s.solver.add_clause(&[c]);
    }
    for part in next.chunks(RECHECK_SLICE) {
        if violated(&mut s, part, &[])?.is_some() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// How many next-state literals one consecution query of [`is_inductive`] checks: several
/// small queries on one solver, which keeps what it learns, are easier than one query whose
/// goal is a clause over every next-state literal.
const RECHECK_SLICE: usize = 16;
