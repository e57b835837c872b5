//! A smaller CNF of whole AIG cones: multi-input ANDs and multiplexers as one gate each.
//!
//! [`super::Tseitin`] gives every AND node a variable and three clauses, which suits solvers that
//! receive cones one query at a time. A transition system encodes its whole circuit once, and
//! there a SAT query pays for every variable and clause it propagates through. Here, knowing
//! every root up front:
//!
//! - a tree of AND nodes joined by uncomplemented edges, each inner node used only by its parent,
//!   becomes one gate `g ↔ l₁ ∧ … ∧ lₖ` over the tree's leaves: `k` binary clauses and one of
//!   `k + 1` literals, instead of `k − 1` variables and `3(k − 1)` clauses;
//! - a node `¬(s ∧ t) ∧ ¬(¬s ∧ e)` whose two inner ANDs have no other use (how
//!   [`crate::aig::Aig::ite`] and [`crate::aig::Aig::xor`] build a multiplexer and an XOR) becomes
//!   one gate `g ↔ ¬ite(s, t, e)`: four clauses (six when `t` and `e` are different variables:
//!   the two that let a solver conclude the output from equal data inputs), instead of three
//!   variables and nine clauses.
//!
//! Every node used more than once, through a complemented edge (but a multiplexer's inner ANDs),
//! or as a root keeps its variable, so each gate is a function of the variables of smaller nodes
//! and the result has the structure [`super::Tseitin`]'s has: every clause defines the largest
//! variable it mentions, as a function of smaller ones, which is what cone-by-cone loading
//! (`engine::pdr::cone`) and predecessor lifting rely on. Variables are allocated in the AIG's
//! order (fanins before their nodes).

use super::{ClauseSink, Tseitin};
use crate::aig::{Aig, AigLit, AigNode};
use crate::sat::Lit;

/// How a node that keeps its variable is defined.
enum Gate {
    /// The conjunction of the leaves.
    And(Vec<AigLit>),
    /// `¬ite(s, t, e)`, as `[s, t, e]`.
    NotMux([AigLit; 3]),
}

impl Gate {
    /// The literals the gate is a function of.
    fn leaves(&self) -> &[AigLit] {
        match self {
            Gate::And(ls) => ls,
            Gate::NotMux(ste) => ste,
        }
    }
}

/// The cones of `roots` that `ts` has not encoded yet, encoded into `sink` with multi-input ANDs
/// and multiplexers (see the module doc); the literal of each root. Inputs of the AIG that `ts`
/// has no literal for get fresh variables. `ts` learns the literal of every node that keeps a
/// variable; the nodes folded into a gate have none.
pub fn encode_cones(
    aig: &Aig,
    ts: &mut Tseitin,
    sink: &mut (impl ClauseSink + ?Sized),
    roots: &[AigLit],
) -> Vec<Lit> {
    let cone = Cone::new(aig, ts, roots);
    let mut gates = cone.gates(roots);
    // In the AIG's order, a variable and the clauses of each kept node.
    for (v, gate) in gates.iter_mut().enumerate() {
        let Some(gate) = gate.take() else {
            continue;
        };
        let g = sink.new_var().pos();
        ts.bind(v as u32, g);
        let lit = |l: AigLit| {
            ts.lookup(l.var())
                .expect("leaf before its gate")
                .xor_sign(l.is_negated())
        };
        match (aig.node(v as u32), gate) {
            (AigNode::Const, _) => sink.add_clause(&[!g]),
            (AigNode::Input, _) => {}
            (AigNode::And(..), Gate::And(leaves)) => {
                let ls: Vec<Lit> = leaves.iter().map(|&l| lit(l)).collect();
                add_and(sink, g, &ls);
            }
            (AigNode::And(..), Gate::NotMux([s, t, e])) => {
                add_not_mux(sink, g, lit(s), lit(t), lit(e));
            }
        }
    }
    roots
        .iter()
        .map(|r| {
            ts.lookup(r.var())
                .expect("roots are encoded")
                .xor_sign(r.is_negated())
        })
        .collect()
}

/// The part of an AIG to encode: the cones of the roots, stopping at nodes already encoded.
struct Cone<'a> {
    aig: &'a Aig,
    /// How often each node is used by the cone's AND nodes and by the roots.
    uses: Vec<u32>,
    /// Which nodes are in the cone (and not encoded yet).
    inside: Vec<bool>,
}

impl<'a> Cone<'a> {
    fn new(aig: &'a Aig, ts: &Tseitin, roots: &[AigLit]) -> Cone<'a> {
        let n = aig.nodes().len();
        let mut uses = vec![0u32; n];
        let mut inside = vec![false; n];
        let mut stack: Vec<u32> = roots.iter().map(|r| r.var()).collect();
        for r in roots {
            uses[r.var() as usize] += 1;
        }
        while let Some(v) = stack.pop() {
            if inside[v as usize] || ts.lookup(v).is_some() {
                continue;
            }
            inside[v as usize] = true;
            if let AigNode::And(a, b) = aig.node(v) {
                for x in [a, b] {
                    uses[x.var() as usize] += 1;
                    stack.push(x.var());
                }
            }
        }
        Cone { aig, uses, inside }
    }

    /// The fanins of `l`'s node when it is an AND node of the cone used only once and `l` has
    /// the polarity `negated`: a node its user may fold into its own gate.
    fn private_and(&self, l: AigLit, negated: bool) -> Option<(AigLit, AigLit)> {
        let v = l.var() as usize;
        match self.aig.node(l.var()) {
            AigNode::And(x, y)
                if l.is_negated() == negated && self.uses[v] == 1 && self.inside[v] =>
            {
                Some((x, y))
            }
            _ => None,
        }
    }

    /// The gate of each node of the cone that keeps its variable (`None` for the others), from
    /// the roots down.
    fn gates(&self, roots: &[AigLit]) -> Vec<Option<Gate>> {
        let n = self.inside.len();
        let mut keep = vec![false; n];
        for r in roots {
            keep[r.var() as usize] = true;
        }
        let mut gates: Vec<Option<Gate>> = (0..n).map(|_| None).collect();
        for v in (0..n).rev() {
            if !keep[v] || !self.inside[v] {
                continue;
            }
            let gate = match self.aig.node(v as u32) {
                AigNode::And(a, b) => self.mux(a, b).unwrap_or_else(|| self.and_tree(a, b)),
                _ => Gate::And(Vec::new()),
            };
            for l in gate.leaves() {
                keep[l.var() as usize] = true;
            }
            gates[v] = Some(gate);
        }
        gates
    }

    /// `¬(s ∧ t) ∧ ¬(¬s ∧ e)` as `[s, t, e]`, when `a` and `b` are the complemented inner ANDs
    /// and used only here.
    fn mux(&self, a: AigLit, b: AigLit) -> Option<Gate> {
        let (x, y) = (self.private_and(a, true)?, self.private_and(b, true)?);
        for (s, t) in [(x.0, x.1), (x.1, x.0)] {
            for (ns, e) in [(y.0, y.1), (y.1, y.0)] {
                if ns == !s {
                    return Some(Gate::NotMux([s, t, e]));
                }
            }
        }
        None
    }

    /// `a ∧ b` over the leaves of the tree of uncomplemented, once-used AND nodes below it.
    fn and_tree(&self, a: AigLit, b: AigLit) -> Gate {
        let mut leaves = Vec::new();
        let mut todo = vec![a, b];
        while let Some(l) = todo.pop() {
            match self.private_and(l, false) {
                Some((x, y)) => todo.extend([x, y]),
                None => leaves.push(l),
            }
        }
        Gate::And(leaves)
    }
}

/// `g ↔ ⋀ ls`; `g` false when `ls` holds a literal and its complement.
fn add_and(sink: &mut (impl ClauseSink + ?Sized), g: Lit, ls: &[Lit]) {
    let mut sorted = ls.to_vec();
    sorted.sort_by_key(|l| (l.var().index(), l.is_negated()));
    sorted.dedup();
    if sorted.windows(2).any(|w| w[0].var() == w[1].var()) {
        sink.add_clause(&[!g]);
        return;
    }
    let mut long = Vec::with_capacity(sorted.len() + 1);
    long.push(g);
    for &l in &sorted {
        sink.add_clause(&[!g, l]);
        long.push(!l);
    }
    sink.add_clause(&long);
}

/// `g ↔ ¬ite(s, t, e)`.
fn add_not_mux(sink: &mut (impl ClauseSink + ?Sized), g: Lit, s: Lit, t: Lit, e: Lit) {
    sink.add_clause(&[!s, !t, !g]);
    sink.add_clause(&[!s, t, g]);
    sink.add_clause(&[s, !e, !g]);
    sink.add_clause(&[s, e, g]);
    if t.var() != e.var() {
        sink.add_clause(&[!t, !e, !g]);
        sink.add_clause(&[t, e, g]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::sat::{Backend, Interrupter, SolveResult};

    /// On random AIGs rich in multiplexers, XORs and AND trees: under every assignment of the
    /// inputs, the encoding is satisfiable and each root's literal is forced to the AIG's value
    /// (the negated value is unsatisfiable), and the encoding has fewer variables than
    /// [`Tseitin`]'s.
    #[test]
    fn compact_cones_compute_the_aig() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..40 {
            let mut g = Aig::new();
            let ins: Vec<AigLit> = (0..4).map(|_| g.input()).collect();
            let mut pool = ins.clone();
            for _ in 0..12 {
                let pick = |k: usize, p: &[AigLit]| p[k % p.len()].xor_sign(k.is_multiple_of(3));
                let (a, b, c) = (next(64), next(64), next(64));
                let (a, b, c) = (pick(a, &pool), pick(b, &pool), pick(c, &pool));
                let n = match next(3) {
                    0 => g.ite(a, b, c),
                    1 => g.xor(a, b),
                    _ => {
                        let ab = g.and(a, b);
                        g.and(ab, c)
                    }
                };
                pool.push(n);
            }
            let roots = [pool[pool.len() - 1], !pool[pool.len() - 2], pool[6]];
            let mut cnf = Cnf::new();
            let mut ts = Tseitin::new();
            for i in &ins {
                let v = cnf.new_var();
                ts.bind(i.var(), v.pos());
            }
            let lits = encode_cones(&g, &mut ts, &mut cnf, &roots);
            let mut plain = Cnf::new();
            let mut pts = Tseitin::new();
            for i in &ins {
                let v = plain.new_var();
                pts.bind(i.var(), v.pos());
            }
            for &r in &roots {
                pts.encode(&g, &mut plain, r);
            }
            assert!(cnf.num_vars() <= plain.num_vars());
            let ins_sat: Vec<Lit> = ins.iter().map(|i| ts.lookup(i.var()).unwrap()).collect();
            for bits in 0..16u32 {
                let mut vals = vec![false];
                vals.extend((0..4).map(|k| bits >> k & 1 == 1));
                let aig_vals = g.eval_all(&vals);
                let assume: Vec<Lit> = (ins_sat.iter().enumerate())
                    .map(|(k, &l)| l.xor_sign(bits >> k & 1 == 0))
                    .collect();
                let mut s = Backend::Cadical.create(&Interrupter::new());
                for _ in 0..cnf.num_vars() {
                    s.new_var();
                }
                for c in cnf.iter() {
                    s.add_clause(c);
                }
                assert!(matches!(s.solve(&assume), SolveResult::Sat));
                for (&r, &l) in roots.iter().zip(&lits) {
                    let want = Aig::lit_value(&aig_vals, r);
                    let mut a = assume.clone();
                    a.push(l.xor_sign(want));
                    assert!(matches!(s.solve(&a), SolveResult::Unsat), "root {r:?}");
                }
            }
        }
    }
}
