//! Unrolling a [`System`] into a SAT solver: one block of `n` solver variables per state, with
//! the constraints `U` of every state and the transition `T` between consecutive states; and
//! the memory budget of the engines that unroll ([`too_large`]).

use crate::cnf::Cnf;
use crate::sat::memory::room_for;
use crate::sat::{Lit, Solver, Var};
use crate::ts::System;

/// The estimated solver memory (bytes) that the unrollings of one engine may use; beyond it
/// the engine answers UNKNOWN (memory) rather than exhausting the machine.
pub const MAX_UNROLLED_BYTES: usize = 1_500_000_000;

/// How much more than [`step_bytes`] one more state really costs, at most: the estimate is low
/// by a factor of 1.75 on CaDiCaL unrolling a system of 634,702 variables and 1.9 million
/// clauses per state (327 MB per state measured), and a solver's arrays grow by doubling.
const GROWTH_FACTOR: usize = 3;

/// The estimated solver memory of one state of `sys`: 200 bytes per variable and 12 per
/// literal occurrence of `T`, `U` and `G` (CaDiCaL's footprint, measured roughly).
pub fn step_bytes(sys: &System) -> usize {
    let lits = sys.trans.num_lits() + sys.constraints.num_lits() + sys.bad.num_lits() + 1;
    200 * (sys.n() + 1) + 12 * lits
}

/// Whether an engine that would hold `states` unrolled states of `sys` in its solvers after
/// adding `new` more is over its memory budget: the estimate exceeds [`MAX_UNROLLED_BYTES`],
/// or the process has no room for the new states (see [`room_for`]). The engines check this
/// before they grow, because running out of memory inside a solver ends the engine (see
/// [`crate::sat::Failure::OutOfMemory`]), and in Rust code it ends the process.
pub fn too_large(sys: &System, states: usize, new: usize) -> bool {
    let per_step = step_bytes(sys);
    states.saturating_mul(per_step) > MAX_UNROLLED_BYTES
        || !room_for(new.saturating_mul(per_step).saturating_mul(GROWTH_FACTOR))
}

/// How many clauses [`add_mapped`] adds between two looks at the interrupter.
const POLL_CLAUSES: usize = 1 << 14;

/// The solver variables of each unrolled state.
pub struct Unrolling<'s> {
    sys: &'s System,
    frames: Vec<Vec<Lit>>,
}

impl<'s> Unrolling<'s> {
    /// An unrolling with no state yet.
    pub fn new(sys: &'s System) -> Unrolling<'s> {
        Unrolling {
            sys,
            frames: Vec::new(),
        }
    }

    /// Hand the per-state literal tables to [`super::graveyard::keep`] (freed later).
    pub fn defer_drop(&mut self) {
        super::graveyard::keep(std::mem::take(&mut self.frames));
    }

    /// The number of states unrolled.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether no state is unrolled.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The solver literal of system variable `v` in state `k`.
    pub fn lit(&self, k: usize, v: Var) -> Lit {
        self.frames[k][v.index()]
    }

    /// The solver literals of state `k`.
    pub fn frame(&self, k: usize) -> &[Lit] {
        &self.frames[k]
    }

    /// Add state `k = len()`: fresh variables, `U(k)`, and `T(k-1, k)` when `k > 0`.
    pub fn push_state(&mut self, solver: &mut dyn Solver) -> usize {
        self.push_state_inner(solver, None, true)
    }

    /// [`Unrolling::push_state`] with every added clause weakened by `guard`, so that the new
    /// state and its transition are only in force while `¬guard` is assumed. `U` is left out of
    /// the new state when `with_u` is false (sound only when [`System::u_total`] holds and
    /// nothing reads the gates `U` defines in that state).
    pub fn push_state_guarded(
        &mut self,
        solver: &mut dyn Solver,
        guard: Lit,
        with_u: bool,
    ) -> usize {
        self.push_state_inner(solver, Some(guard), with_u)
    }

    fn push_state_inner(
        &mut self,
        solver: &mut dyn Solver,
        guard: Option<Lit>,
        with_u: bool,
    ) -> usize {
        let k = self.frames.len();
        let vars: Vec<Lit> = (0..self.sys.num_vars)
            .map(|_| solver.new_var().pos())
            .collect();
        self.frames.push(vars);
        let n = self.sys.n();
        let cur = &self.frames[k];
        if with_u {
            add_mapped(solver, &self.sys.constraints, guard, |v| cur[v.index()]);
        }
        if k > 0 {
            let prev = &self.frames[k - 1];
            add_mapped(solver, &self.sys.trans, guard, |v| {
                let i = v.index();
                if i < n {
                    prev[i]
                } else {
                    cur[i - n]
                }
            });
        }
        k
    }

    /// Add a section over `0..n` (I, U or G) for state `k`.
    pub fn add_section(&self, solver: &mut dyn Solver, cnf: &Cnf, k: usize) {
        let f = &self.frames[k];
        cnf.add_renamed(solver, |v| f[v.index()]);
    }

    /// Add a section for state `k`, each clause weakened by `guard` (active while `¬guard`
    /// is assumed, as in the scheme of LLUMC, Kleine Büning, Balyo and Sinz).
    pub fn add_section_guarded(&self, solver: &mut dyn Solver, cnf: &Cnf, k: usize, guard: Lit) {
        let f = &self.frames[k];
        add_mapped(solver, cnf, Some(guard), |v| f[v.index()]);
    }

    /// A literal that is true exactly when state `k` satisfies `cnf`.
    pub fn section_literal(&self, solver: &mut dyn Solver, cnf: &Cnf, k: usize) -> Lit {
        let f = &self.frames[k];
        conjunction_literal(solver, cnf, |v| f[v.index()])
    }

    /// The full valuation of every unrolled state in the solver's last model.
    pub fn extract_states(&self, solver: &dyn Solver, upto: usize) -> Vec<Vec<bool>> {
        self.frames[..=upto]
            .iter()
            .map(|f| f.iter().map(|&l| solver.model_value(l)).collect())
            .collect()
    }
}

/// Whether every state of `sys` (satisfying `U`) is known to have a successor. That needs
/// [`System::lifting`]: `T` is then functional, so any inputs extend a state to a step, and
/// the question is whether the next state keeps `U`'s constraint units. Either there are none
/// ([`System::u_total`]), or one query in `solver` shows that no state satisfying them steps,
/// under any inputs, to one that violates one (true of the program counter's range in a C
/// program's system; an AIGER constraint on inputs can fail it). DimSpec input and an
/// interrupted query answer false. `solver` makes the solver, only when the query is needed.
pub fn every_state_has_successor(sys: &System, solver: impl FnOnce() -> Box<dyn Solver>) -> bool {
    let Some(lifting) = &sys.lifting else {
        return false;
    };
    if sys.u_total || lifting.constraints.is_empty() {
        return true;
    }
    let Some(defs) = sys.definitions_only() else {
        return false;
    };
    let mut solver = solver();
    let solver = solver.as_mut();
    let mut un = Unrolling::new(&defs);
    un.push_state(solver);
    let at = |un: &Unrolling<'_>, k: usize, l: Lit| un.lit(k, l.var()).xor_sign(l.is_negated());
    for &c in &lifting.constraints {
        solver.add_clause(&[at(&un, 0, c)]);
    }
    un.push_state(solver);
    let violated: Vec<Lit> = lifting
        .constraints
        .iter()
        .map(|&c| !at(&un, 1, c))
        .collect();
    solver.add_clause(&violated);
    solver.solve(&[]) == crate::sat::SolveResult::Unsat
}

/// A literal equivalent to "the state whose variables are `frame` satisfies `cnf`" (Tseitin
/// encoding of the conjunction of the clauses, one auxiliary variable per clause).
pub fn conjunction_literal(solver: &mut dyn Solver, cnf: &Cnf, frame: impl Fn(Var) -> Lit) -> Lit {
    let g = solver.new_var().pos();
    let mut all = Vec::with_capacity(cnf.len() + 1);
    all.push(g);
    let mut buf = Vec::new();
    for c in cnf.iter() {
        // c_j ↔ ∨ lits;  g → c_j;  (∧ c_j) → g.
        let cj = solver.new_var().pos();
        buf.clear();
        buf.push(!cj);
        for &l in c {
            let fl = frame(l.var()).xor_sign(l.is_negated());
            buf.push(fl);
            solver.add_clause(&[cj, !fl]);
        }
        solver.add_clause(&buf);
        solver.add_clause(&[!g, cj]);
        all.push(!cj);
    }
    solver.add_clause(&all);
    g
}

/// Add every clause of `cnf` with variables renamed by `map`, weakened by `guard` if given;
/// only some of them when the solver's interrupter is raised meanwhile (the transition
/// relation of a large program has millions of clauses). The solver then answers every query
/// with `Interrupted` (a run never lowers a raised flag), and a formula with fewer clauses
/// could not give a wrong `Unsat` anyway.
fn add_mapped(solver: &mut dyn Solver, cnf: &Cnf, guard: Option<Lit>, map: impl Fn(Var) -> Lit) {
    let intr = solver.interrupter();
    let mut buf = Vec::new();
    for (i, c) in cnf.iter().enumerate() {
        if i.is_multiple_of(POLL_CLAUSES) && intr.is_interrupted() {
            return;
        }
        buf.clear();
        buf.extend(c.iter().map(|&l| map(l.var()).xor_sign(l.is_negated())));
        buf.extend(guard);
        solver.add_clause(&buf);
    }
}
