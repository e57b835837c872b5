//! Elimination of gate variables from a system made from a circuit, by resolution on their
//! definitions (bounded variable elimination restricted to gates, as in Eén and Biere,
//! "Effective Preprocessing in SAT through Variable and Clause Elimination").
//!
//! In a system with [`System::lifting`] structure every clause of `U` but the constraint units
//! defines its largest variable from smaller ones, and every clause of `T` mentioning a
//! next-state latch defines it. A gate `g` therefore occurs in its definition `D` (clauses whose
//! largest variable is `g`) and in uses `R` (clauses whose largest variable is larger). Since
//! `D` defines `g` totally, `∃g. D ∧ R` is the set of resolvents of `D` with `R` on `g`: those of
//! `D` with itself are valid and those of `R` with itself are implied. Each resolvent of `d ∈ D`
//! and `r ∈ R` has `r`'s largest variable, so it joins `r`'s definition (in `U`, or in `T` when
//! `r` is there) and the structure is kept: the loaded cones of `engine::pdr::cone` and
//! predecessor lifting stay sound. A gate is eliminated when that does not add clauses (the
//! resolvents are at most `|D| + |R|`) and its clauses are short.
//!
//! Latches, inputs, and the variables of `I`, `G` and the constraint literals are never
//! eliminated, and the variable numbering is kept (an eliminated gate occurs in no clause), so
//! a model of the result, restricted to them, is a model of the original and every plan and
//! every invariant over latches means the same in both systems. `tests/pdr_models.rs` checks
//! both on random circuits.

use crate::cnf::Cnf;
use crate::sat::Lit;
use crate::ts::System;

/// A gate with more clauses than this (definition and uses) is kept.
const MAX_OCCURRENCES: usize = 24;
/// A resolvent longer than this keeps its gate.
const MAX_RESOLVENT: usize = 24;

/// What elimination did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EliminateStats {
    /// Gates eliminated.
    pub gates: usize,
    /// Clauses of `U` and `T` before and after.
    pub clauses_before: usize,
    pub clauses_after: usize,
}

/// The clauses of `U` (definitions) and `T`, with occurrence lists.
struct Clauses {
    lits: Vec<Vec<Lit>>,
    in_t: Vec<bool>,
    alive: Vec<bool>,
    /// The largest variable of each clause.
    top: Vec<usize>,
    /// For each current-state variable, the clauses it occurs in (dead ones included).
    occ: Vec<Vec<usize>>,
}

impl Clauses {
    fn add(&mut self, mut c: Vec<Lit>, in_t: bool) {
        c.sort();
        c.dedup();
        let id = self.lits.len();
        let top = c.iter().map(|l| l.var().index()).max().unwrap_or(0);
        for l in &c {
            if let Some(o) = self.occ.get_mut(l.var().index()) {
                o.push(id);
            }
        }
        self.lits.push(c);
        self.in_t.push(in_t);
        self.alive.push(true);
        self.top.push(top);
    }

    /// The live clauses of `g`: its definition and its uses.
    fn split(&mut self, g: usize) -> (Vec<usize>, Vec<usize>) {
        let alive = &self.alive;
        self.occ[g].retain(|&c| alive[c]);
        self.occ[g].iter().partition(|&&c| self.top[c] == g)
    }

    /// The resolvents of the definition `defs` of `g` with its uses, if there are at most
    /// as many as the clauses they replace and none is too long.
    fn resolvents(
        &self,
        g: usize,
        defs: &[usize],
        uses: &[usize],
    ) -> Option<Vec<(Vec<Lit>, bool)>> {
        let mut out = Vec::new();
        for &d in defs {
            let pivot = self.lits[d].iter().find(|l| l.var().index() == g)?;
            for &r in uses {
                if !self.lits[r].contains(&!*pivot) {
                    continue;
                }
                let mut res: Vec<Lit> = self.lits[d]
                    .iter()
                    .chain(&self.lits[r])
                    .copied()
                    .filter(|l| l.var().index() != g)
                    .collect();
                res.sort();
                res.dedup();
                if res.windows(2).any(|w| w[0].var() == w[1].var()) {
                    continue;
                }
                if res.len() > MAX_RESOLVENT || out.len() == defs.len() + uses.len() {
                    return None;
                }
                out.push((res, self.in_t[r]));
            }
        }
        Some(out)
    }
}

/// `sys` with gates eliminated (see the module doc), or `None` without the structure
/// ([`System::lifting`]) it relies on.
pub fn eliminate(sys: &System) -> Option<(System, EliminateStats)> {
    let lifting = sys.lifting.as_ref()?;
    let n = sys.n();
    let defs_len = sys.definitions_len()?;
    let mut frozen = vec![false; n];
    let mut freeze = |l: &Lit| {
        if let Some(f) = frozen.get_mut(l.var().index()) {
            *f = true;
        }
    };
    lifting.inputs.iter().for_each(|v| freeze(&v.pos()));
    lifting.constraints.iter().for_each(&mut freeze);
    sys.init.iter().flatten().for_each(&mut freeze);
    sys.bad.iter().flatten().for_each(&mut freeze);
    sys.latch_vars().iter().for_each(|v| freeze(&v.pos()));
    let mut cl = Clauses {
        lits: Vec::new(),
        in_t: Vec::new(),
        alive: Vec::new(),
        top: Vec::new(),
        occ: vec![Vec::new(); n],
    };
    for c in sys.constraints.iter().take(defs_len) {
        cl.add(c.to_vec(), false);
    }
    for c in sys.trans.iter() {
        cl.add(c.to_vec(), true);
    }
    let mut stats = EliminateStats {
        clauses_before: cl.lits.len(),
        ..EliminateStats::default()
    };
    for (g, &frozen) in frozen.iter().enumerate() {
        if frozen {
            continue;
        }
        let (defs, uses) = cl.split(g);
        if defs.is_empty() || defs.len() + uses.len() > MAX_OCCURRENCES {
            continue;
        }
        let Some(res) = cl.resolvents(g, &defs, &uses) else {
            continue;
        };
        for &c in defs.iter().chain(&uses) {
            cl.alive[c] = false;
        }
        for (c, in_t) in res {
            cl.add(c, in_t);
        }
        stats.gates += 1;
    }
    let mut u = Cnf::new();
    let mut t = Cnf::new();
    u.reserve_vars(sys.constraints.num_vars());
    t.reserve_vars(sys.trans.num_vars());
    for (i, c) in cl.lits.iter().enumerate() {
        if cl.alive[i] {
            if cl.in_t[i] { &mut t } else { &mut u }.push(c);
        }
    }
    stats.clauses_after = u.len() + t.len();
    for c in sys.constraints.iter().skip(defs_len) {
        u.push(c);
    }
    let out = System {
        constraints: u,
        trans: t,
        ..sys.clone()
    };
    Some((out, stats))
}
