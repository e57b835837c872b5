//! Re-checking k-induction and diameter certificates ([`Certificate::KInduction`],
//! [`Certificate::Diameter`]) apart from the engines that produce them: the system's clause
//! lists unrolled here with a numbering of our own, and simple-path constraints of our own.
//!
//! A path is a sequence of states `s_0 … s_j` with `U` in every state and `T` between
//! consecutive ones (the system's semantics, [`System`]); it starts initially when `I(s_0)`.
//! It is *simple* when its states differ pairwise on the compared variables (below). Both
//! certificates claim that no goal state is reachable, by two facts each:
//!
//! - **base** (both): no path that starts initially and has at most `k + 1` states ends in a
//!   goal state. A path to a goal may end in a state without a successor (`T` need not be total,
//!   and `U` may exclude every successor), so the query asks for no state beyond its goal: the
//!   clauses of state `i` are only in force while the path reaches state `i`.
//! - **KInduction{k}**: no simple path `s_0 … s_k` (any first state) has `¬G` in its first `k`
//!   states and `G` in its last. A shortest path to a goal is simple and avoids the goal before
//!   its end; were it longer than `k + 1` states, its last `k + 1` states would be such a path.
//!   So every shortest one has at most `k + 1` states, which the base excludes.
//! - **Diameter{k}**: no simple path `s_0 … s_k` that starts initially has `¬G` in its first
//!   `k` states. Were a shortest path to a goal longer than `k + 1` states, its first `k + 1`
//!   states would be such a path; again the base excludes the rest.
//!
//! Compared variables: the latches (the variables whose next-state copy `T` mentions) and the
//! variables `I` mentions. A shortest path is simple on them: if `s_i` and `s_j` (`i < j`)
//! agree there, then `s_0 … s_{i-1} s_j … s_m` is a path too, and shorter (`T(s_{i-1}, ·)`
//! reads only the latches of its next state, which `s_j` shares with `s_i`; for `i = 0`, `I`
//! reads only variables they share), with the same last state and its other states among the
//! old path's non-last ones.
//!
//! One solver holds `k + 1` states for all the queries of a certificate; literals select what
//! is in force (the initial condition, how far the path reaches, where it is in the goal, where
//! it avoids it). The simple-path constraints are added lazily: a model whose path repeats a
//! state on the compared variables gets, for each state that repeats an earlier one, the
//! constraint that it differs from the latest such, and the query is asked again (an UNSAT
//! answer under some of the constraints holds under all).

use crate::cnf::Cnf;
use crate::engine::{graveyard, Certificate, Interrupted};
use crate::sat::{Backend, Interrupter, Lit, SolveResult, Solver, Var};
use crate::ts::System;
use std::collections::HashMap;

/// How many clauses are added between two looks at the interrupter.
const POLL_EVERY: usize = 1 << 14;

/// Check a k-induction or diameter certificate of `sys` with a fresh solver of `backend`:
/// `Ok(true)` when it holds, `Ok(false)` when it does not (or is of another kind, or `sys`
/// breaks its clause ranges), `Err` when `interrupter` stopped the check.
pub fn check(
    sys: &System,
    cert: &Certificate,
    backend: Backend,
    interrupter: &Interrupter,
) -> Result<bool, Interrupted> {
    let (k, from_initial) = match *cert {
        Certificate::KInduction { k } => (k, false),
        Certificate::Diameter { k } => (k, true),
        _ => return Ok(false),
    };
    if !in_ranges(sys) {
        return Ok(false);
    }
    let mut chain = Chain::new(sys, backend.create(interrupter));
    let answer = chain.holds(k, from_initial);
    graveyard::keep(chain.solver);
    graveyard::keep(chain.cell);
    answer
}

/// The clause ranges of [`System`]: I, U, G over `0..n`, T over `0..2n`.
fn in_ranges(sys: &System) -> bool {
    let below = |cnf: &Cnf, limit: u32| cnf.iter().flatten().all(|l| l.var().0 < limit);
    let n = sys.num_vars;
    below(&sys.init, n)
        && below(&sys.constraints, n)
        && below(&sys.bad, n)
        && below(&sys.trans, n.saturating_mul(2))
}

/// The variables on which the states of a simple path differ (see the module doc).
fn compared(sys: &System) -> Vec<Var> {
    let n = sys.num_vars;
    let mut mark = vec![false; sys.n()];
    let next_copies = sys
        .trans
        .iter()
        .flatten()
        .filter_map(|l| l.var().0.checked_sub(n));
    let initial = sys.init.iter().flatten().map(|l| l.var().0);
    for v in next_copies.chain(initial) {
        if let Some(m) = mark.get_mut(v as usize) {
            *m = true;
        }
    }
    (0..n).filter(|&v| mark[v as usize]).map(Var).collect()
}

/// The states `0..=k` of one path in a solver, with the literals that select what holds.
struct Chain<'s> {
    sys: &'s System,
    solver: Box<dyn Solver>,
    /// `cell[i * n + v]`: the literal of variable `v` in state `i`.
    cell: Vec<Lit>,
    /// `reach[i]`: the path has state `i` (its `U` and its `T` from state `i - 1` are in
    /// force); `reach[i]` implies `reach[i - 1]`.
    reach: Vec<Lit>,
    /// Puts `I` in force for state 0.
    initial: Lit,
    /// `goal[i]` implies `reach[i]` and `G` in state `i`.
    goal: Vec<Lit>,
    /// `clear[i]` implies `¬G` in state `i`.
    clear: Vec<Lit>,
}

impl<'s> Chain<'s> {
    fn new(sys: &'s System, mut solver: Box<dyn Solver>) -> Chain<'s> {
        let initial = solver.new_var().pos();
        Chain {
            sys,
            solver,
            cell: Vec::new(),
            reach: Vec::new(),
            initial,
            goal: Vec::new(),
            clear: Vec::new(),
        }
    }

    /// Whether the base and the certificate's own claim at `k` hold.
    fn holds(&mut self, k: usize, from_initial: bool) -> Result<bool, Interrupted> {
        for _ in 0..=k {
            self.add_state()?;
        }
        add_clauses(self.solver.as_mut(), &self.sys.init, self.initial, |v| {
            self.cell[v.index()]
        })?;
        if self.goal_within(k)? {
            return Ok(false);
        }
        self.no_simple_path(k, from_initial)
    }

    /// The literal of system literal `l` over `0..n` in state `i`.
    fn at(&self, i: usize, l: Lit) -> Lit {
        self.cell[i * self.sys.n() + l.var().index()].xor_sign(l.is_negated())
    }

    /// Add the next state: its cells, `U` and `T` from the state before under its `reach`
    /// literal, and its `goal` and `clear` literals.
    fn add_state(&mut self) -> Result<(), Interrupted> {
        let i = self.reach.len();
        let n = self.sys.n();
        let s = self.solver.as_mut();
        self.cell.extend((0..n).map(|_| s.new_var().pos()));
        let reach = s.new_var().pos();
        let cell = &self.cell[i * n..];
        add_clauses(s, &self.sys.constraints, reach, |v| cell[v.index()])?;
        if let Some(&before) = self.reach.last() {
            s.add_clause(&[!reach, before]);
            let prev = &self.cell[(i - 1) * n..];
            add_clauses(s, &self.sys.trans, reach, |v| {
                match v.index().checked_sub(n) {
                    Some(next) => cell[next],
                    None => prev[v.index()],
                }
            })?;
        }
        self.reach.push(reach);
        let goal = s.new_var().pos();
        s.add_clause(&[!goal, reach]);
        add_clauses(s, &self.sys.bad, goal, |v| cell[v.index()])?;
        self.goal.push(goal);
        let clear = self.avoid_goal(i);
        self.clear.push(clear);
        Ok(())
    }

    /// A literal that implies `¬G` in state `i`: some clause of `G` has every literal false.
    fn avoid_goal(&mut self, i: usize) -> Lit {
        let clear = self.solver.new_var().pos();
        let mut some_false = vec![!clear];
        for c in self.sys.bad.iter() {
            let falsified = self.solver.new_var().pos();
            for &l in c {
                let x = self.at(i, l);
                self.solver.add_clause(&[!falsified, !x]);
            }
            some_false.push(falsified);
        }
        self.solver.add_clause(&some_false);
        clear
    }

    /// Whether a path that starts initially reaches a goal state within `k` steps (one query
    /// over all of them). The query's clause is retired afterwards.
    fn goal_within(&mut self, k: usize) -> Result<bool, Interrupted> {
        let ask = self.solver.new_var().pos();
        let mut any = vec![!ask];
        any.extend_from_slice(&self.goal[..=k]);
        self.solver.add_clause(&any);
        let r = self.solver.solve(&[self.initial, ask]);
        self.solver.add_clause(&[!ask]);
        match r {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Interrupted => Err(Interrupted),
        }
    }

    /// Whether no simple path `s_0 … s_k` avoids the goal in its first `k` states and either
    /// starts initially (`from_initial`) or ends in the goal.
    fn no_simple_path(&mut self, k: usize, from_initial: bool) -> Result<bool, Interrupted> {
        let s = self.solver.as_mut();
        s.add_clause(&[self.reach[k]]);
        for &c in &self.clear[..k] {
            s.add_clause(&[c]);
        }
        s.add_clause(&[if from_initial {
            self.initial
        } else {
            self.goal[k]
        }]);
        let vars = compared(self.sys);
        loop {
            match self.solver.solve(&[]) {
                SolveResult::Unsat => return Ok(true),
                SolveResult::Interrupted => return Err(Interrupted),
                SolveResult::Sat => {}
            }
            let repeats = self.repeats(k, &vars);
            if repeats.is_empty() {
                return Ok(false);
            }
            if vars.is_empty() {
                // Every two states agree on nothing to compare: no path of two states is simple.
                return Ok(true);
            }
            for (i, j) in repeats {
                self.differ(i, j, &vars);
            }
        }
    }

    /// The pairs `(i, j)`, `i < j ≤ k`, of the model's path where state `j` equals state `i` on
    /// `vars` and no state between them does.
    fn repeats(&self, k: usize, vars: &[Var]) -> Vec<(usize, usize)> {
        let mut latest: HashMap<Vec<bool>, usize> = HashMap::new();
        let mut pairs = Vec::new();
        for j in 0..=k {
            let key: Vec<bool> = vars
                .iter()
                .map(|&v| self.solver.model_value(self.at(j, v.pos())))
                .collect();
            if let Some(i) = latest.insert(key, j) {
                pairs.push((i, j));
            }
        }
        pairs
    }

    /// Require states `i` and `j` to differ on one of `vars`.
    fn differ(&mut self, i: usize, j: usize, vars: &[Var]) {
        let mut some = Vec::with_capacity(vars.len());
        for &v in vars {
            let (x, y) = (self.at(i, v.pos()), self.at(j, v.pos()));
            let d = self.solver.new_var().pos();
            self.solver.add_clause(&[!d, x, y]);
            self.solver.add_clause(&[!d, !x, !y]);
            some.push(d);
        }
        self.solver.add_clause(&some);
    }
}

/// Add every clause of `cnf`, renamed by `map` and in force only while `when` holds. Stops
/// early when the solver's interrupter is raised (its answers are then all `Interrupted`).
fn add_clauses(
    s: &mut dyn Solver,
    cnf: &Cnf,
    when: Lit,
    map: impl Fn(Var) -> Lit,
) -> Result<(), Interrupted> {
    let interrupter = s.interrupter();
    let mut clause = Vec::new();
    for (i, c) in cnf.iter().enumerate() {
        if i.is_multiple_of(POLL_EVERY) && interrupter.is_interrupted() {
            return Err(Interrupted);
        }
        clause.clear();
        clause.push(!when);
        clause.extend(c.iter().map(|&l| map(l.var()).xor_sign(l.is_negated())));
        s.add_clause(&clause);
    }
    Ok(())
}
