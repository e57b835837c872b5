//! Clause storage and Tseitin encoding of AIG cones.
//!
//! - [`Cnf`] is a flat clause list (one literal array plus clause ends), used for the sections of
//!   a transition system and as a [`ClauseSink`] that collects clauses instead of solving them.
//! - [`ClauseSink`] is what the encoder writes into: a [`Solver`] or a [`Cnf`].
//! - [`Tseitin`] encodes AIG nodes on demand and remembers the literal of every node it has
//!   encoded, so a long-lived incremental solver never receives the same gate twice.
//!
//! Encoding: an AND node `g = a ∧ b` gives the three clauses `¬g ∨ a`, `¬g ∨ b`, `g ∨ ¬a ∨ ¬b`.
//! The constant node is a variable fixed by a unit clause the first time it is needed.
//! - [`compact::encode_cones`] encodes whole cones at once with multi-input ANDs and
//!   multiplexers as one gate each (transition systems, which encode their circuit once).

use crate::aig::{Aig, AigLit, AigNode};
use crate::sat::{Lit, Solver, Var};

pub mod compact;

/// Something clauses can be written into.
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Add a clause.
    fn add_clause(&mut self, lits: &[Lit]);
}

impl<S: Solver + ?Sized> ClauseSink for S {
    fn new_var(&mut self) -> Var {
        Solver::new_var(self)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        Solver::add_clause(self, lits)
    }
}

/// A flat list of clauses over variables `0..num_vars`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    num_vars: u32,
    lits: Vec<Lit>,
    ends: Vec<u32>,
}

impl Cnf {
    /// An empty clause list.
    pub fn new() -> Cnf {
        Cnf::default()
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The number of variables handed out or mentioned.
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// Raise the variable count to at least `n`.
    pub fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }

    /// The total number of literal occurrences.
    pub fn num_lits(&self) -> usize {
        self.lits.len()
    }

    /// Add a clause.
    pub fn push(&mut self, clause: &[Lit]) {
        for &l in clause {
            self.num_vars = self.num_vars.max(l.var().0 + 1);
        }
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len() as u32);
    }

    /// The `i`-th clause.
    pub fn clause(&self, i: usize) -> &[Lit] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.lits[start..self.ends[i] as usize]
    }

    /// The clauses in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        (0..self.ends.len()).map(move |i| self.clause(i))
    }

    /// Append every clause of `other`.
    pub fn extend(&mut self, other: &Cnf) {
        for c in other.iter() {
            self.push(c);
        }
    }

    /// Whether an assignment (`value(var)`) satisfies every clause.
    pub fn satisfied_by(&self, mut value: impl FnMut(Var) -> bool) -> bool {
        self.iter()
            .all(|c| c.iter().any(|&l| value(l.var()) != l.is_negated()))
    }

    /// The index of the first clause the assignment violates.
    pub fn first_violated(&self, mut value: impl FnMut(Var) -> bool) -> Option<usize> {
        self.iter()
            .position(|c| !c.iter().any(|&l| value(l.var()) != l.is_negated()))
    }

    /// Add every clause, with each variable renamed by `map`, to `sink`.
    pub fn add_renamed(
        &self,
        sink: &mut (impl ClauseSink + ?Sized),
        mut map: impl FnMut(Var) -> Lit,
    ) {
        let mut buf = Vec::new();
        for c in self.iter() {
            buf.clear();
            buf.extend(c.iter().map(|&l| map(l.var()).xor_sign(l.is_negated())));
            sink.add_clause(&buf);
        }
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        let v = Var(self.num_vars);
        self.num_vars += 1;
        v
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.push(lits)
    }
}

/// On-demand Tseitin encoding of AIG nodes into one [`ClauseSink`], with a cache.
///
/// One encoder belongs to one sink (one solver, or one clause list); inputs of the AIG are
/// either bound by the caller to given literals ([`Tseitin::bind`]) or get fresh variables.
#[derive(Clone, Debug, Default)]
pub struct Tseitin {
    map: Vec<Option<Lit>>,
}

impl Tseitin {
    /// An encoder with nothing encoded yet.
    pub fn new() -> Tseitin {
        Tseitin::default()
    }

    /// Use `lit` for the AIG variable `aig_var` (an input, or a node already encoded elsewhere).
    pub fn bind(&mut self, aig_var: u32, lit: Lit) {
        let i = aig_var as usize;
        if self.map.len() <= i {
            self.map.resize(i + 1, None);
        }
        self.map[i] = Some(lit);
    }

    /// The literal of an AIG variable, if it is bound or encoded.
    pub fn lookup(&self, aig_var: u32) -> Option<Lit> {
        self.map.get(aig_var as usize).copied().flatten()
    }

    /// The SAT literal of `root`, encoding its cone (only the nodes not encoded before).
    pub fn encode(
        &mut self,
        aig: &Aig,
        sink: &mut (impl ClauseSink + ?Sized),
        root: AigLit,
    ) -> Lit {
        if self.map.len() < aig.num_vars() as usize {
            self.map.resize(aig.num_vars() as usize, None);
        }
        let mut stack = vec![(root.var(), false)];
        while let Some((v, expanded)) = stack.pop() {
            if self.map[v as usize].is_some() {
                continue;
            }
            match aig.node(v) {
                AigNode::Const => {
                    let t = sink.new_var();
                    sink.add_clause(&[t.neg()]);
                    self.map[v as usize] = Some(t.pos());
                }
                AigNode::Input => {
                    self.map[v as usize] = Some(sink.new_var().pos());
                }
                AigNode::And(a, b) => {
                    if expanded {
                        let la = self.lit_of(a);
                        let lb = self.lit_of(b);
                        let g = sink.new_var().pos();
                        sink.add_clause(&[!g, la]);
                        sink.add_clause(&[!g, lb]);
                        sink.add_clause(&[g, !la, !lb]);
                        self.map[v as usize] = Some(g);
                    } else {
                        stack.push((v, true));
                        for x in [a, b] {
                            if self.map[x.var() as usize].is_none() {
                                stack.push((x.var(), false));
                            }
                        }
                    }
                }
            }
        }
        self.lit_of(root)
    }

    fn lit_of(&self, l: AigLit) -> Lit {
        match self.map[l.var() as usize] {
            Some(x) => x.xor_sign(l.is_negated()),
            None => unreachable!("fanin encoded before its node"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cnf_storage_and_evaluation() {
        let mut c = Cnf::new();
        let a = Var(0);
        let b = Var(3);
        c.push(&[a.pos(), b.neg()]);
        c.push(&[b.pos()]);
        assert_eq!(c.len(), 2);
        assert_eq!(c.num_vars(), 4);
        assert_eq!(c.clause(1), &[b.pos()]);
        assert!(c.satisfied_by(|v| v == a || v == b));
        assert_eq!(c.first_violated(|v| v == b), Some(0));
    }

    #[test]
    fn tseitin_matches_aig_evaluation() {
        // Every assignment of the inputs extends to exactly one model of the encoding, and in
        // it the root's literal has the AIG's value.
        let mut g = Aig::new();
        let x = g.input();
        let y = g.input();
        let z = g.input();
        let xy = g.xor(x, y);
        let root = g.ite(z, xy, !x);
        let mut cnf = Cnf::new();
        let mut ts = Tseitin::new();
        let r = ts.encode(&g, &mut cnf, root);
        let before = cnf.len();
        let r2 = ts.encode(&g, &mut cnf, root);
        assert_eq!(r, r2);
        assert_eq!(cnf.len(), before, "no gate is encoded twice");
        let ins: Vec<Lit> = [x, y, z]
            .iter()
            .map(|l| ts.lookup(l.var()).unwrap())
            .collect();
        for bits in 0..8u32 {
            let inputs = [false, bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
            let vals = g.eval_all(&inputs);
            // Propagate: the value of every SAT variable is the value of its AIG node.
            let mut sat_val = vec![false; cnf.num_vars() as usize];
            for v in 0..g.num_vars() {
                if let Some(l) = ts.lookup(v) {
                    sat_val[l.var().index()] = vals[v as usize] ^ l.is_negated();
                }
            }
            assert!(cnf.satisfied_by(|v| sat_val[v.index()]));
            assert_eq!(
                sat_val[r.var().index()] ^ r.is_negated(),
                Aig::lit_value(&vals, root)
            );
            let _ = &ins;
        }
    }
}
