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
    /// `¬ite(s, t, e)`.
    NotMux(AigLit, AigLit, AigLit),
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
    let nodes = aig.nodes();
    let (uses, in_cone) = uses_in_cone(aig, ts, roots);
    let (keep, mut gates) = choose_gates(aig, ts, roots, &uses, &in_cone);
    // In the AIG's order, a variable and the clauses of each kept node.
    for v in 0..nodes.len() {
        if !keep[v] || !in_cone[v] {
            continue;
        }
        let g = sink.new_var().pos();
        ts.bind(v as u32, g);
        let lit = |l: AigLit| {
            ts.lookup(l.var())
                .expect("leaf before its gate")
                .xor_sign(l.is_negated())
        };
        match (&nodes[v], gates[v].take()) {
            (AigNode::Const, _) => sink.add_clause(&[!g]),
            (AigNode::Input, _) => {}
            (_, Some(Gate::And(leaves))) => {
                let ls: Vec<Lit> = leaves.iter().map(|&l| lit(l)).collect();
                add_and(sink, g, &ls);
            }
            (_, Some(Gate::NotMux(s, t, e))) => {
                add_not_mux(sink, g, lit(s), lit(t), lit(e));
            }
            (AigNode::And(..), None) => unreachable!("every kept AND node has a gate"),
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

/// How often each node is used by the AND nodes of the cones of `roots` (and by the roots), and
/// which nodes are in those cones (stopping at nodes `ts` knows).
fn uses_in_cone(aig: &Aig, ts: &Tseitin, roots: &[AigLit]) -> (Vec<u32>, Vec<bool>) {
    let nodes = aig.nodes();
    let known = |ts: &Tseitin, v: u32| ts.lookup(v).is_some();
    // Uses of each node from the cone's AND nodes and from the roots.
    let mut uses = vec![0u32; nodes.len()];
    let mut in_cone = vec![false; nodes.len()];
    let mut stack: Vec<u32> = roots.iter().map(|r| r.var()).collect();
    for r in roots {
        uses[r.var() as usize] += 1;
    }
    while let Some(v) = stack.pop() {
        if in_cone[v as usize] || known(ts, v) {
            continue;
        }
        in_cone[v as usize] = true;
        if let AigNode::And(a, b) = nodes[v as usize] {
            for x in [a, b] {
                uses[x.var() as usize] += 1;
                stack.push(x.var());
            }
        }
    }
    (uses, in_cone)
}

/// The nodes that keep a variable, and the gate of each kept AND node, from the roots down.
fn choose_gates(
    aig: &Aig,
    ts: &Tseitin,
    roots: &[AigLit],
    uses: &[u32],
    in_cone: &[bool],
) -> (Vec<bool>, Vec<Option<Gate>>) {
    let nodes = aig.nodes();
    let known = |ts: &Tseitin, v: u32| ts.lookup(v).is_some();
    let folds = |ts: &Tseitin, l: AigLit| {
        !l.is_negated()
            && uses[l.var() as usize] == 1
            && !known(ts, l.var())
            && matches!(nodes[l.var() as usize], AigNode::And(..))
    };
    // From the roots down, the gate of each node that keeps its variable.
    let mut keep = vec![false; nodes.len()];
    for r in roots {
        keep[r.var() as usize] = true;
    }
    let mut gates: Vec<Option<Gate>> = (0..nodes.len()).map(|_| None).collect();
    for v in (0..nodes.len()).rev() {
        if !keep[v] || !in_cone[v] {
            continue;
        }
        let AigNode::And(a, b) = nodes[v] else {
            continue;
        };
        let gate = mux(aig, uses, ts, a, b).unwrap_or_else(|| {
            let mut leaves = Vec::new();
            let mut todo = vec![a, b];
            while let Some(l) = todo.pop() {
                match nodes[l.var() as usize] {
                    AigNode::And(x, y) if folds(ts, l) => todo.extend([x, y]),
                    _ => leaves.push(l),
                }
            }
            leaves.sort();
            leaves.dedup();
            Gate::And(leaves)
        });
        let leaves = match &gate {
            Gate::And(ls) => ls.clone(),
            Gate::NotMux(s, t, e) => vec![*s, *t, *e],
        };
        for l in leaves {
            keep[l.var() as usize] = true;
        }
        gates[v] = Some(gate);
    }
    (keep, gates)
}

/// `¬(s ∧ t) ∧ ¬(¬s ∧ e)` as `(s, t, e)`, when `a` and `b` are the complemented inner ANDs and
/// used only here.
fn mux(aig: &Aig, uses: &[u32], ts: &Tseitin, a: AigLit, b: AigLit) -> Option<Gate> {
    let inner = |l: AigLit| match aig.node(l.var()) {
        AigNode::And(x, y)
            if l.is_negated() && uses[l.var() as usize] == 1 && ts.lookup(l.var()).is_none() =>
        {
            Some((x, y))
        }
        _ => None,
    };
    let (x, y) = (inner(a)?, inner(b)?);
    for (s, t) in [(x.0, x.1), (x.1, x.0)] {
        for (ns, e) in [(y.0, y.1), (y.1, y.0)] {
            if ns == !s {
                return Some(Gate::NotMux(s, t, e));
            }
        }
    }
    None
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
