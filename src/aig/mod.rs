//! And-inverter graphs: the manager with structural hashing and constant propagation, the
//! bit-blaster from [`crate::bv`] terms, ternary simulation, and AIGER 1.9 input and output.
//!
//! Invariants:
//! - [`AigLit`] is `2 * var + complemented`; variable 0 is the constant, so literal 0 is
//!   `false` and literal 1 is `true`.
//! - Every AND node's fanins have smaller variables than the node (the node array is in
//!   topological order), so evaluation and encoding walk variables upwards without recursion.
//! - Two AND nodes never have the same (ordered) pair of fanins: [`Aig::and`] hashes them.

pub mod aiger;
pub mod blast;
pub mod sim;

use std::collections::HashMap;
use std::fmt;
use std::ops::Not;

/// A literal of an AIG: `2 * var + complemented`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AigLit(pub u32);

impl AigLit {
    /// The constant `false`.
    pub const FALSE: AigLit = AigLit(0);
    /// The constant `true`.
    pub const TRUE: AigLit = AigLit(1);

    /// The literal of variable `var`, complemented if `neg`.
    pub fn new(var: u32, neg: bool) -> AigLit {
        AigLit((var << 1) | neg as u32)
    }
    /// The variable (node index) of this literal.
    pub fn var(self) -> u32 {
        self.0 >> 1
    }
    /// Whether the literal is complemented.
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    /// Whether the literal is one of the two constants.
    pub fn is_const(self) -> bool {
        self.0 < 2
    }
    /// The constant literal of `b`.
    pub fn constant(b: bool) -> AigLit {
        AigLit(b as u32)
    }
    /// This literal complemented when `flip` holds.
    pub fn xor_sign(self, flip: bool) -> AigLit {
        AigLit(self.0 ^ flip as u32)
    }
    /// The uncomplemented literal of the same variable.
    pub fn positive(self) -> AigLit {
        AigLit(self.0 & !1)
    }
}

impl Not for AigLit {
    type Output = AigLit;
    fn not(self) -> AigLit {
        AigLit(self.0 ^ 1)
    }
}

impl fmt::Debug for AigLit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_negated() {
            write!(f, "!a{}", self.var())
        } else {
            write!(f, "a{}", self.var())
        }
    }
}

/// A node of the AIG.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AigNode {
    /// The constant node (variable 0).
    Const,
    /// A free input of the graph (a primary input, or a latch's current value; the graph does
    /// not distinguish them: transition systems in [`crate::ts`] do).
    Input,
    /// The conjunction of two literals with smaller variables.
    And(AigLit, AigLit),
}

/// An AIG manager.
#[derive(Clone, Debug)]
pub struct Aig {
    nodes: Vec<AigNode>,
    strash: HashMap<(AigLit, AigLit), AigLit>,
}

impl Default for Aig {
    fn default() -> Self {
        Aig::new()
    }
}

impl Aig {
    /// The bytes the nodes and the structural-hashing table hold (their capacities), for
    /// memory budgets: growing either allocates up to twice as much again.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<AigNode>()
            + self.strash.capacity() * (size_of::<((AigLit, AigLit), AigLit)>() + 1)
    }

    /// A graph with only the constant node.
    pub fn new() -> Aig {
        Aig {
            nodes: vec![AigNode::Const],
            strash: HashMap::new(),
        }
    }

    /// The number of variables (nodes), including the constant.
    pub fn num_vars(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// The number of AND nodes.
    pub fn num_ands(&self) -> usize {
        self.strash.len()
    }

    /// The node of variable `var`.
    pub fn node(&self, var: u32) -> AigNode {
        self.nodes[var as usize]
    }

    /// All nodes, indexed by variable.
    pub fn nodes(&self) -> &[AigNode] {
        &self.nodes
    }

    /// A fresh input node.
    pub fn input(&mut self) -> AigLit {
        let v = self.nodes.len() as u32;
        self.nodes.push(AigNode::Input);
        AigLit::new(v, false)
    }

    /// `a ∧ b`, with constant propagation, trivial simplification and structural hashing.
    pub fn and(&mut self, a: AigLit, b: AigLit) -> AigLit {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == AigLit::FALSE || a == !b {
            return AigLit::FALSE;
        }
        if a == AigLit::TRUE || a == b {
            return b;
        }
        if let Some(&r) = self.strash.get(&(a, b)) {
            return r;
        }
        let v = self.nodes.len() as u32;
        self.nodes.push(AigNode::And(a, b));
        let r = AigLit::new(v, false);
        self.strash.insert((a, b), r);
        r
    }

    /// `a ∨ b`.
    pub fn or(&mut self, a: AigLit, b: AigLit) -> AigLit {
        !self.and(!a, !b)
    }

    /// `a ⊕ b` (three AND nodes).
    pub fn xor(&mut self, a: AigLit, b: AigLit) -> AigLit {
        if a.is_const() {
            return b.xor_sign(a == AigLit::TRUE);
        }
        if b.is_const() {
            return a.xor_sign(b == AigLit::TRUE);
        }
        let x = self.and(a, !b);
        let y = self.and(!a, b);
        self.or(x, y)
    }

    /// `a ↔ b`.
    pub fn xnor(&mut self, a: AigLit, b: AigLit) -> AigLit {
        !self.xor(a, b)
    }

    /// `c ? t : e`.
    pub fn ite(&mut self, c: AigLit, t: AigLit, e: AigLit) -> AigLit {
        if c == AigLit::TRUE || t == e {
            return t;
        }
        if c == AigLit::FALSE {
            return e;
        }
        let x = self.and(c, t);
        let y = self.and(!c, e);
        self.or(x, y)
    }

    /// The conjunction of all literals (`true` when empty).
    pub fn and_all(&mut self, lits: impl IntoIterator<Item = AigLit>) -> AigLit {
        let mut acc = AigLit::TRUE;
        for l in lits {
            acc = self.and(acc, l);
        }
        acc
    }

    /// The disjunction of all literals (`false` when empty).
    pub fn or_all(&mut self, lits: impl IntoIterator<Item = AigLit>) -> AigLit {
        let mut acc = AigLit::FALSE;
        for l in lits {
            acc = self.or(acc, l);
        }
        acc
    }

    /// Evaluate literals under a value for every input variable (`inputs[var]`; entries of
    /// non-input variables are ignored). Returns the value of every variable.
    pub fn eval_all(&self, inputs: &[bool]) -> Vec<bool> {
        let mut val = vec![false; self.nodes.len()];
        for (v, n) in self.nodes.iter().enumerate() {
            val[v] = match *n {
                AigNode::Const => false,
                AigNode::Input => inputs.get(v).copied().unwrap_or(false),
                AigNode::And(a, b) => {
                    (val[a.var() as usize] ^ a.is_negated())
                        && (val[b.var() as usize] ^ b.is_negated())
                }
            };
        }
        val
    }

    /// The value of `lit` given the values of all variables from [`Aig::eval_all`].
    pub fn lit_value(values: &[bool], lit: AigLit) -> bool {
        values[lit.var() as usize] ^ lit.is_negated()
    }

    /// The variables in the transitive fanin of `roots` (inputs and ANDs, not the constant), in
    /// increasing (topological) order.
    pub fn cone(&self, roots: &[AigLit]) -> Vec<u32> {
        let mut mark = vec![false; self.nodes.len()];
        let mut stack: Vec<u32> = roots.iter().map(|l| l.var()).collect();
        while let Some(v) = stack.pop() {
            if v == 0 || mark[v as usize] {
                continue;
            }
            mark[v as usize] = true;
            if let AigNode::And(a, b) = self.nodes[v as usize] {
                stack.push(a.var());
                stack.push(b.var());
            }
        }
        (0..self.nodes.len() as u32)
            .filter(|&v| mark[v as usize])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strash_and_constants() {
        let mut g = Aig::new();
        let a = g.input();
        let b = g.input();
        let x = g.and(a, b);
        let y = g.and(b, a);
        assert_eq!(x, y);
        assert_eq!(g.num_ands(), 1);
        assert_eq!(g.and(a, !a), AigLit::FALSE);
        assert_eq!(g.and(a, AigLit::TRUE), a);
        assert_eq!(g.and(a, a), a);
        let v = g.eval_all(&[false, true, true]);
        assert!(Aig::lit_value(&v, x));
        let v = g.eval_all(&[false, true, false]);
        assert!(!Aig::lit_value(&v, x));
        let e = g.xor(a, b);
        for (va, vb) in [(false, false), (false, true), (true, false), (true, true)] {
            let v = g.eval_all(&[false, va, vb]);
            assert_eq!(Aig::lit_value(&v, e), va ^ vb);
        }
    }
}
