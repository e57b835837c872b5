//! Ternary (0, 1, X) simulation of an [`Aig`], with incremental updates for predecessor lifting.
//!
//! [`TernarySim`] keeps one value per AIG variable. [`TernarySim::simulate`] evaluates every
//! node from the input values in one upward pass. After that, [`TernarySim::update`] changes one
//! input and re-evaluates only the nodes whose value changes (event-driven, in topological
//! order through a fanout index built once), recording the old values in a journal, so that
//! [`TernarySim::rollback`] can undo it. [`TernarySim::try_set_x`] packages the lifting step of
//! PDR: set an input (or latch) to X, keep it if the given literals stay binary, undo otherwise.
//!
//! Soundness: `X ∧ 0 = 0`, `X ∧ 1 = X`, `X ∧ X = X`, `¬X = X`; so a binary result is the value
//! of every completion of the Xs (never the other way round: X may be a constant in truth).

use super::{Aig, AigLit, AigNode};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

/// A ternary value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ternary {
    Zero,
    One,
    X,
}

impl Ternary {
    /// The binary value `b`.
    pub fn from_bool(b: bool) -> Ternary {
        if b {
            Ternary::One
        } else {
            Ternary::Zero
        }
    }
    /// The binary value, if any.
    pub fn to_bool(self) -> Option<bool> {
        match self {
            Ternary::Zero => Some(false),
            Ternary::One => Some(true),
            Ternary::X => None,
        }
    }
    /// Whether the value is 0 or 1.
    pub fn is_binary(self) -> bool {
        self != Ternary::X
    }
    /// Ternary conjunction.
    pub fn and(self, other: Ternary) -> Ternary {
        match (self, other) {
            (Ternary::Zero, _) | (_, Ternary::Zero) => Ternary::Zero,
            (Ternary::One, Ternary::One) => Ternary::One,
            _ => Ternary::X,
        }
    }
    /// Ternary negation.
    pub fn negate(self) -> Ternary {
        match self {
            Ternary::Zero => Ternary::One,
            Ternary::One => Ternary::Zero,
            Ternary::X => Ternary::X,
        }
    }
    /// This value negated when `flip`.
    pub fn xor_sign(self, flip: bool) -> Ternary {
        if flip {
            self.negate()
        } else {
            self
        }
    }
}

impl fmt::Display for Ternary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ternary::Zero => "0",
            Ternary::One => "1",
            Ternary::X => "x",
        })
    }
}

/// Ternary simulator over a fixed AIG (the graph must not grow while the simulator lives).
pub struct TernarySim<'a> {
    aig: &'a Aig,
    values: Vec<Ternary>,
    /// Fanouts of variable `v`: `fanout[fanout_start[v]..fanout_start[v + 1]]`.
    fanout_start: Vec<u32>,
    fanout: Vec<u32>,
    /// Old values of changed variables since the last [`TernarySim::commit`].
    journal: Vec<(u32, Ternary)>,
    queue: BinaryHeap<Reverse<u32>>,
    queued: Vec<bool>,
}

impl<'a> TernarySim<'a> {
    /// A simulator with every input at X (call [`TernarySim::simulate`] after setting inputs).
    pub fn new(aig: &'a Aig) -> TernarySim<'a> {
        let n = aig.num_vars() as usize;
        let mut count = vec![0u32; n + 1];
        for node in aig.nodes() {
            if let AigNode::And(a, b) = *node {
                count[a.var() as usize] += 1;
                count[b.var() as usize] += 1;
            }
        }
        let mut start = vec![0u32; n + 1];
        for v in 0..n {
            start[v + 1] = start[v] + count[v];
        }
        let mut fill = start.clone();
        let mut fanout = vec![0u32; start[n] as usize];
        for (v, node) in aig.nodes().iter().enumerate() {
            if let AigNode::And(a, b) = *node {
                for x in [a.var(), b.var()] {
                    fanout[fill[x as usize] as usize] = v as u32;
                    fill[x as usize] += 1;
                }
            }
        }
        let mut values = vec![Ternary::X; n];
        values[0] = Ternary::Zero;
        TernarySim {
            aig,
            values,
            fanout_start: start,
            fanout,
            journal: Vec::new(),
            queue: BinaryHeap::new(),
            queued: vec![false; n],
        }
    }

    /// Set the value of input variable `var` without propagating (see [`TernarySim::simulate`]).
    /// Panics if `var` is not an input node.
    pub fn set_input(&mut self, var: u32, value: Ternary) {
        assert_eq!(
            self.aig.node(var),
            AigNode::Input,
            "variable {var} is not an input"
        );
        self.values[var as usize] = value;
    }

    /// Evaluate every AND node from the current input values; clears the journal.
    pub fn simulate(&mut self) {
        for v in 0..self.values.len() {
            if let AigNode::And(a, b) = self.aig.node(v as u32) {
                self.values[v] = self.eval_and(a, b);
            }
        }
        self.journal.clear();
    }

    fn eval_and(&self, a: AigLit, b: AigLit) -> Ternary {
        self.value(a).and(self.value(b))
    }

    /// The value of a literal.
    pub fn value(&self, lit: AigLit) -> Ternary {
        self.values[lit.var() as usize].xor_sign(lit.is_negated())
    }

    /// The values of all variables.
    pub fn values(&self) -> &[Ternary] {
        &self.values
    }

    /// Set input `var` to `value` and re-evaluate the nodes that change, journaling old values.
    /// Panics if `var` is not an input node.
    pub fn update(&mut self, var: u32, value: Ternary) {
        assert_eq!(
            self.aig.node(var),
            AigNode::Input,
            "variable {var} is not an input"
        );
        if self.values[var as usize] == value {
            return;
        }
        self.journal.push((var, self.values[var as usize]));
        self.values[var as usize] = value;
        self.push_fanouts(var);
        while let Some(Reverse(v)) = self.queue.pop() {
            self.queued[v as usize] = false;
            if let AigNode::And(a, b) = self.aig.node(v) {
                let new = self.eval_and(a, b);
                if new != self.values[v as usize] {
                    self.journal.push((v, self.values[v as usize]));
                    self.values[v as usize] = new;
                    self.push_fanouts(v);
                }
            }
        }
    }

    fn push_fanouts(&mut self, v: u32) {
        let (s, e) = (
            self.fanout_start[v as usize] as usize,
            self.fanout_start[v as usize + 1] as usize,
        );
        for &f in &self.fanout[s..e] {
            if !self.queued[f as usize] {
                self.queued[f as usize] = true;
                self.queue.push(Reverse(f));
            }
        }
    }

    /// A mark of the journal, to [`TernarySim::rollback`] to.
    pub fn checkpoint(&self) -> usize {
        self.journal.len()
    }

    /// Undo every [`TernarySim::update`] since `mark`.
    pub fn rollback(&mut self, mark: usize) {
        while self.journal.len() > mark {
            if let Some((v, old)) = self.journal.pop() {
                self.values[v as usize] = old;
            }
        }
    }

    /// Forget the journal (updates so far can no longer be rolled back).
    pub fn commit(&mut self) {
        self.journal.clear();
    }

    /// Set input `var` to X if every literal of `keep` stays binary; otherwise leave all values
    /// as they were. Returns whether `var` is now X.
    pub fn try_set_x(&mut self, var: u32, keep: &[AigLit]) -> bool {
        let mark = self.checkpoint();
        self.update(var, Ternary::X);
        if keep.iter().all(|&l| self.value(l).is_binary()) {
            true
        } else {
            self.rollback(mark);
            false
        }
    }
}
