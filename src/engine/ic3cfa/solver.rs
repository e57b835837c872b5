//! The SAT side of IC3CFA: word-level terms bit-blasted once into one AIG, and one incremental
//! solver per location that receives queries about its incoming edges.
//!
//! The solver of location `l′` holds, as queries first need them, the transition relation of
//! every edge into `l′` (its literal `T_e`, assumed by a query about `e`), the lemmas of every
//! location with an edge into `l′` (each clause guarded by an activation literal of its
//! location and level, so that `F(i−1, l)` is switched on by assuming the literals of `l`'s
//! levels `≥ i−1`), and the current- and next-state literals of the cubes' atoms. A solver
//! only learns variables through the cones of what it is given, so a query pays for the
//! location's neighbourhood, not for the whole program.

use super::Cube;
use crate::aig::blast::Blaster;
use crate::aig::{Aig, AigLit};
use crate::bv::{TermId, TermManager};
use crate::cfa::Loc;
use crate::cnf::Tseitin;
use crate::sat::{Backend, Interrupter, Lit, SolveResult, Solver};
use std::collections::{BTreeMap, HashMap};

/// Terms bit-blasted into one AIG, shared by every solver.
pub struct Circuit {
    pub aig: Aig,
    pub bl: Blaster,
}

impl Circuit {
    pub fn new() -> Circuit {
        Circuit {
            aig: Aig::new(),
            bl: Blaster::new(),
        }
    }

    /// The AIG literal of a `bool` term.
    pub fn lit(&mut self, tm: &TermManager, t: TermId) -> AigLit {
        match self.bl.cached(t) {
            Some(bits) => bits[0],
            None => self.bl.blast_bool(tm, &mut self.aig, t),
        }
    }
}

/// What a query found.
pub enum Answer {
    /// Satisfiable: the solver holds the model (read it with [`LocSolver::var_value`]).
    Sat,
    /// Unsatisfiable: the cube's literals whose next-state copies the refutation used.
    Unsat(Cube),
    Interrupted,
}

/// The solver of one location (see the module doc).
pub struct LocSolver {
    solver: Box<dyn Solver>,
    enc: Tseitin,
    /// The activation literal of each (source location, level) whose lemmas this solver holds.
    acts: HashMap<Loc, BTreeMap<usize, Lit>>,
}

impl LocSolver {
    pub fn new(backend: Backend, interrupter: &Interrupter) -> LocSolver {
        LocSolver {
            solver: backend.create(interrupter),
            enc: Tseitin::new(),
            acts: HashMap::new(),
        }
    }

    /// The solver literal of an AIG literal (its cone encoded on first use).
    pub fn lit(&mut self, c: &Circuit, l: AigLit) -> Lit {
        self.enc.encode(&c.aig, self.solver.as_mut(), l)
    }

    /// Adds lemma `¬cube` of location `at` at `level`: its literals are the current-state
    /// literals of the cube.
    pub fn add_lemma(&mut self, at: Loc, level: usize, cube: &[AigLit], c: &Circuit) {
        let act = match self.acts.entry(at).or_default().get(&level) {
            Some(&a) => a,
            None => {
                let a = self.solver.new_var().pos();
                self.acts.entry(at).or_default().insert(level, a);
                a
            }
        };
        let mut clause = vec![!act];
        for &l in cube {
            clause.push(!self.lit(c, l));
        }
        self.solver.add_clause(&clause);
    }

    /// Whether `F(level, from) ∧ T ∧ next` is satisfiable, where `trans` is the edge's literal
    /// and `next` the next-state literals of a cube (with the cube literal each stands for);
    /// `frame` says whether `from`'s lemmas apply (false for the initial location, whose frames
    /// are every state).
    pub fn query(
        &mut self,
        c: &Circuit,
        from: Loc,
        level: usize,
        frame: bool,
        trans: AigLit,
        next: &[(TermId, AigLit)],
    ) -> Answer {
        let mut assumptions: Vec<Lit> = Vec::new();
        if frame {
            if let Some(levels) = self.acts.get(&from) {
                assumptions.extend(levels.range(level..).map(|(_, &a)| a));
            }
        }
        assumptions.push(self.lit(c, trans));
        let lits: Vec<(TermId, Lit)> = next.iter().map(|&(t, l)| (t, self.lit(c, l))).collect();
        assumptions.extend(lits.iter().map(|&(_, l)| l));
        match self.solver.solve(&assumptions) {
            SolveResult::Sat => Answer::Sat,
            SolveResult::Interrupted => Answer::Interrupted,
            SolveResult::Unsat => {
                let mut core: Cube = lits
                    .iter()
                    .filter(|&&(_, l)| self.solver.failed(l).unwrap_or(true))
                    .map(|&(t, _)| t)
                    .collect();
                core.sort();
                core.dedup();
                Answer::Unsat(core)
            }
        }
    }

    /// The value of a variable's bits in the last model (bits the solver never saw read 0).
    pub fn var_value(&self, bits: &[AigLit]) -> u128 {
        let mut x = 0u128;
        for (b, l) in bits.iter().enumerate() {
            let v = self
                .enc
                .lookup(l.var())
                .map(|s| self.solver.model_value(s.xor_sign(l.is_negated())));
            if v == Some(true) {
                x |= 1 << b;
            }
        }
        x
    }

    /// The number of variables of the solver.
    pub fn num_vars(&self) -> u32 {
        self.solver.num_vars()
    }

    /// Hands the solver to [`crate::engine::graveyard::keep`].
    pub fn retire(self) {
        crate::engine::graveyard::keep(self.solver);
    }
}
