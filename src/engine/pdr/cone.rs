//! The transition relation loaded into a PDR solver on demand, cone by cone.
//!
//! A relative-induction query `F ∧ ¬c ∧ T ∧ c'` only depends on the next-state functions of
//! the latches in `c` and on the gates below them; a SAT solver holding the whole of `T` and
//! `U` must still assign every gate of the system to answer it, which dominates the cost of a
//! query on systems exported from programs (thousands of inputs and gates, cubes of a few
//! latches). As in ABC's `pdr`, a solver here starts with the constraints of `U` and their
//! cones only, and each query first loads the definitions of what its literals reach.
//!
//! This relies on the structure of systems made from an AIG ([`System::lifting`]): every
//! clause of `U` but the constraint units defines the largest variable it mentions from
//! smaller ones (Tseitin, gates numbered after their fanins), and every clause of `T` whose
//! largest variable is a next-state latch defines that latch. A definition admits a value of
//! its variable for every value of the smaller ones, so a model of the loaded clauses extends
//! to one of all clauses (the unloaded gates computed in order): the answers are those of the
//! full solver. [`ConeIndex::new`] checks the structure and refuses other systems.

use crate::cnf::Cnf;
use crate::sat::{Lit, Solver, Var};
use crate::ts::System;

/// How many variables [`Loaded::drain`] loads between two looks at the interrupter (a
/// cone of a large program has millions).
const POLL_LOADS: usize = 4096;
/// Which clauses define which variable.
#[derive(Debug)]
pub struct ConeIndex {
    n: usize,
    /// `U` without its constraint units, and for each variable the clauses defining it.
    u: Cnf,
    u_defs: Vec<Vec<u32>>,
    /// `T`, and for each latch the clauses defining its next-state copy.
    t: Cnf,
    t_defs: Vec<Vec<u32>>,
    /// Clauses of `T` over current-state variables only (loaded with the step).
    t_always: Vec<u32>,
    /// The constraint literals (unit clauses of `U`).
    units: Vec<Lit>,
}

impl ConeIndex {
    /// The index of `sys`, or `None` when its clauses do not have the structure above.
    pub fn new(sys: &System) -> Option<ConeIndex> {
        let lifting = sys.lifting.as_ref()?;
        let n = sys.n();
        let defs_len = sys.definitions_len()?;
        let mut u = Cnf::new();
        u.reserve_vars(sys.constraints.num_vars());
        // Latches are the variables whose next-state copy `T` mentions.
        let mut latch = vec![false; n];
        for c in sys.trans.iter() {
            for l in c {
                if let Some(v) = l.var().index().checked_sub(n) {
                    latch[v] = true;
                }
            }
        }
        let mut input = vec![false; n];
        for v in &lifting.inputs {
            input[v.index()] = true;
        }
        let mut u_defs = vec![Vec::new(); n];
        for (i, c) in sys.constraints.iter().enumerate() {
            if i >= defs_len {
                if c != [lifting.constraints[i - defs_len]] {
                    return None;
                }
                continue;
            }
            let top = c.iter().map(|l| l.var().index()).max()?;
            // A clause of `U` over a next-state variable is no definition of a state's gate,
            // and one defining a latch or input would constrain it.
            if top >= n || input[top] || latch[top] {
                return None;
            }
            u_defs[top].push(u.len() as u32);
            u.push(c);
        }
        let mut t_defs = vec![Vec::new(); n];
        let mut t_always = Vec::new();
        for (i, c) in sys.trans.iter().enumerate() {
            let top = c.iter().map(|l| l.var().index()).max()?;
            if top >= n {
                t_defs[top - n].push(i as u32);
            } else {
                t_always.push(i as u32);
            }
        }
        Some(ConeIndex {
            n,
            u,
            u_defs,
            t: sys.trans.clone(),
            t_defs,
            t_always,
            units: lifting.constraints.clone(),
        })
    }
}

/// The solver literals of one state copy, each made when a clause or a query first needs it.
///
/// A solver decides every variable it knows, whether or not a clause mentions it, so a
/// satisfiable query costs a decision per variable: allocating the copy's `n` variables up
/// front made every query pay for the whole system however small the loaded cones were.
/// Variables that no clause mentions are unconstrained, and read as false in a model.
pub struct StateLits {
    lits: Vec<Option<Lit>>,
}

impl StateLits {
    /// A copy of `n` variables, none made yet.
    pub fn lazy(n: usize) -> StateLits {
        StateLits {
            lits: vec![None; n],
        }
    }

    /// A copy whose literals exist already.
    pub fn made(lits: Vec<Lit>) -> StateLits {
        StateLits {
            lits: lits.into_iter().map(Some).collect(),
        }
    }

    /// The copy's number of variables (0 for a solver without this copy).
    pub fn len(&self) -> usize {
        self.lits.len()
    }

    /// The solver literal of `l` over this copy, made on first use.
    pub fn lit(&mut self, solver: &mut dyn Solver, l: Lit) -> Lit {
        let slot = &mut self.lits[l.var().index()];
        slot.get_or_insert_with(|| solver.new_var().pos())
            .xor_sign(l.is_negated())
    }

    /// The solver literal of `l` if it was made.
    pub fn get(&self, l: Lit) -> Option<Lit> {
        self.lits[l.var().index()].map(|x| x.xor_sign(l.is_negated()))
    }

    /// The value of every variable in the solver's model (false for those never made).
    pub fn values(&self, solver: &dyn Solver) -> Vec<bool> {
        self.lits
            .iter()
            .map(|l| l.is_some_and(|l| solver.model_value(l)))
            .collect()
    }
}

/// What a solver has loaded of an index, over its current-state (`cur`) and next-state
/// (`next`) literals.
pub struct Loaded {
    index: std::sync::Arc<ConeIndex>,
    cur_done: Vec<bool>,
    next_done: Vec<bool>,
    /// Weakens the clauses of the step (`T` and the next state's constraints).
    step: Lit,
    stack: Vec<(bool, usize)>,
    buf: Vec<Lit>,
}

/// The constraints: enforced in both states, or only their cones loaded in the current state
/// (for a lifting query, which asks them to hold itself; a constraint enforced on the next
/// state would hide predecessors whose successor violates it, and lifting would keep too few
/// literals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    Enforced,
    ConesOnly,
}

impl Loaded {
    /// Loads the constraints of the current state (as `units` says) and, when enforced, those
    /// of the next state under `step` (unless `U` restricts nothing), with their cones.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        index: std::sync::Arc<ConeIndex>,
        solver: &mut dyn Solver,
        cur: &mut StateLits,
        next: &mut StateLits,
        step: Lit,
        units: Units,
        u_total: bool,
    ) -> Loaded {
        let n = index.n;
        let mut l = Loaded {
            cur_done: vec![false; n],
            next_done: vec![false; n],
            step,
            stack: Vec::new(),
            buf: Vec::new(),
            index,
        };
        let constraints = l.index.units.clone();
        for &c in &constraints {
            l.ensure(solver, cur, next, false, c.var());
            if units == Units::Enforced {
                let lit = cur.lit(solver, c);
                solver.add_clause(&[lit]);
            }
        }
        if next.len() > 0 {
            if units == Units::Enforced && !u_total {
                for &c in &constraints {
                    l.ensure(solver, cur, next, true, c.var());
                    let lit = next.lit(solver, c);
                    solver.add_clause(&[lit, !step]);
                }
            }
            let index = std::sync::Arc::clone(&l.index);
            for &i in &index.t_always {
                l.add_t(&index, solver, cur, next, i as usize);
            }
            l.drain(solver, cur, next);
        }
        l
    }

    /// Whether the current state's `v` was reached by what is loaded (its definition, if it
    /// has one, is in the solver).
    pub fn has_cur(&self, v: Var) -> bool {
        self.cur_done[v.index()]
    }

    /// Loads the definition of `v` in the current (`in_next` false) or next state, and of
    /// everything it depends on.
    pub fn ensure(
        &mut self,
        solver: &mut dyn Solver,
        cur: &mut StateLits,
        next: &mut StateLits,
        in_next: bool,
        v: Var,
    ) {
        self.stack.push((in_next, v.index()));
        self.drain(solver, cur, next);
    }

    /// Loads what the stack asks for; stops early when the solver's interrupter is raised (the
    /// solver then answers every query with `Interrupted`, and the run stops).
    fn drain(&mut self, solver: &mut dyn Solver, cur: &mut StateLits, next: &mut StateLits) {
        let index = std::sync::Arc::clone(&self.index);
        let mut loaded = 0usize;
        while let Some((nx, v)) = self.stack.pop() {
            loaded += 1;
            if loaded.is_multiple_of(POLL_LOADS) && solver.interrupter().is_interrupted() {
                self.stack.clear();
                return;
            }
            let done = if nx {
                &mut self.next_done
            } else {
                &mut self.cur_done
            };
            if done[v] {
                continue;
            }
            done[v] = true;
            let frame = if nx { &mut *next } else { &mut *cur };
            for &i in &index.u_defs[v] {
                let c = index.u.clause(i as usize);
                self.buf.clear();
                self.buf.extend(c.iter().map(|&l| frame.lit(solver, l)));
                solver.add_clause(&self.buf);
                self.stack.extend(
                    c.iter()
                        .map(|l| (nx, l.var().index()))
                        .filter(|&(_, u)| u != v),
                );
            }
            if nx {
                for &i in &index.t_defs[v] {
                    self.add_t(&index, solver, cur, next, i as usize);
                }
            }
        }
    }

    /// Adds clause `i` of `T`, weakened by the step, and queues its current-state variables.
    fn add_t(
        &mut self,
        index: &ConeIndex,
        solver: &mut dyn Solver,
        cur: &mut StateLits,
        next: &mut StateLits,
        i: usize,
    ) {
        let n = index.n;
        let c = index.t.clause(i);
        self.buf.clear();
        for &l in c {
            let k = l.var().index();
            let lit = if k < n {
                cur.lit(solver, l)
            } else {
                next.lit(solver, Lit::new(Var((k - n) as u32), l.is_negated()))
            };
            self.buf.push(lit);
            if k < n {
                self.stack.push((false, k));
            }
        }
        self.buf.push(!self.step);
        solver.add_clause(&self.buf);
    }
}
