//! Houdini (Flanagan, Leino 2001): the largest subset of candidate invariants that is inductive
//! as a whole.
//!
//! Candidates are AIG literals over the latches of a [`Model`]. A candidate that some initial
//! state violates is dropped first. Then, while the surviving set `H` is not inductive, a model
//! of `U ∧ H ∧ T ∧ U' ∧ ¬H'` shows successors that violate some candidates, and every candidate
//! false in that successor is dropped. What remains holds in the initial states and is preserved
//! by every transition, so it holds in every reachable state.
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
use std::time::Instant;

/// A solver holding `U(x) ∧ T(x, x') ∧ U(x')` of a model, with `I(x)` switched on by `init`.
struct TwoStates<'m> {
    model: &'m Model,
    solver: Box<dyn Solver>,
    cur: Tseitin,
    next: Tseitin,
    init: Lit,
}

impl<'m> TwoStates<'m> {
    fn new(model: &'m Model, backend: Backend, intr: &Interrupter) -> TwoStates<'m> {
        let mut solver = backend.create(intr);
        let mut cur = Tseitin::new();
        let mut next = Tseitin::new();
        let init = solver.new_var().pos();
        for l in &model.latches {
            let x = cur.encode(&model.aig, solver.as_mut(), l.node);
            if let Some(r) = l.reset {
                solver.add_clause(&[!init, x.xor_sign(!r)]);
            }
        }
        for l in &model.latches {
            let f = cur.encode(&model.aig, solver.as_mut(), l.next);
            next.bind(l.node.var(), f.xor_sign(l.node.is_negated()));
        }
        for &c in &model.constraints {
            let a = cur.encode(&model.aig, solver.as_mut(), c);
            solver.add_clause(&[a]);
            let b = next.encode(&model.aig, solver.as_mut(), c);
            solver.add_clause(&[b]);
        }
        TwoStates {
            model,
            solver,
            cur,
            next,
            init,
        }
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

/// Drop candidates until no model of `assume(alive) ∧ ¬∧ check[alive]` is left: each model
/// drops every alive candidate whose `check` literal it makes false.
fn prune(
    s: &mut TwoStates<'_>,
    holds: &mut [bool],
    check: &[Option<Lit>],
    assume: impl Fn(&[usize]) -> Vec<Lit>,
    deadline: Option<Instant>,
    sat_calls: &mut usize,
) -> Result<(), Interrupted> {
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Interrupted);
        }
        let alive: Vec<usize> = (0..holds.len()).filter(|&i| holds[i]).collect();
        if alive.is_empty() {
            return Ok(());
        }
        let act = s.solver.new_var().pos();
        let mut clause: Vec<Lit> = alive.iter().filter_map(|&i| check[i]).map(|l| !l).collect();
        clause.push(!act);
        s.solver.add_clause(&clause);
        let mut assumptions = assume(&alive);
        assumptions.push(act);
        *sat_calls += 1;
        let sat = s.solve(&assumptions)?;
        if sat {
            for &i in &alive {
                if check[i].is_some_and(|l| !s.solver.model_value(l)) {
                    holds[i] = false;
                }
            }
        }
        s.solver.add_clause(&[!act]);
        if !sat {
            return Ok(());
        }
    }
}

/// The largest inductive subset of `cands`, or `Err` when interrupted or past `deadline`.
pub fn houdini(
    model: &Model,
    cands: &[AigLit],
    backend: Backend,
    intr: &Interrupter,
    deadline: Option<Instant>,
) -> Result<HoudiniResult, Interrupted> {
    let mut s = TwoStates::new(model, backend, intr);
    let cur: Vec<Lit> = cands.iter().map(|&c| s.cur(c)).collect();
    let mut holds = vec![true; cands.len()];
    let mut sat_calls = 0;
    // Initial states: drop what some initial state violates.
    let init = s.init;
    let at_init: Vec<Option<Lit>> = cur.iter().map(|&l| Some(l)).collect();
    prune(
        &mut s,
        &mut holds,
        &at_init,
        |_| vec![init],
        deadline,
        &mut sat_calls,
    )?;
    // Consecution: drop what a successor of an `H`-state violates, until nothing is.
    let next: Vec<Option<Lit>> = (0..cands.len())
        .map(|i| holds[i].then(|| s.next(cands[i])))
        .collect();
    let in_h = |alive: &[usize]| alive.iter().map(|&i| cur[i]).collect();
    prune(&mut s, &mut holds, &next, in_h, deadline, &mut sat_calls)?;
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
    let mut s = TwoStates::new(model, backend, intr);
    let cur: Vec<Lit> = lits.iter().map(|&c| s.cur(c)).collect();
    let next: Vec<Lit> = lits.iter().map(|&c| s.next(c)).collect();
    // I ∧ ¬H
    let a = s.solver.new_var().pos();
    let mut clause: Vec<Lit> = cur.iter().map(|&l| !l).collect();
    clause.push(!a);
    s.solver.add_clause(&clause);
    if s.solve(&[s.init, a])? {
        return Ok(false);
    }
    s.solver.add_clause(&[!a]);
    // H ∧ T ∧ ¬H'
    let b = s.solver.new_var().pos();
    let mut clause: Vec<Lit> = next.iter().map(|&l| !l).collect();
    clause.push(!b);
    s.solver.add_clause(&clause);
    let mut assumptions = cur;
    assumptions.push(b);
    Ok(!s.solve(&assumptions)?)
}
