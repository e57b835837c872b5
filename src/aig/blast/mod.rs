//! The bit-blaster: [`crate::bv`] terms to AIG literals, least significant bit first.
//!
//! A [`Blaster`] remembers the literals of every term it has blasted and of every free
//! variable, so blasting many roots into one [`Aig`] shares all common structure (on top of the
//! AIG's own structural hashing). The traversal is iterative, so term DAGs of any depth are
//! fine. A `bool` term is one literal.
//!
//! The semantics are exactly [`crate::bv::value::apply`]'s (SMT-LIB division by zero and
//! over-wide shifts). Circuits, with their sizes for `w`-bit variable operands:
//!
//! | operators | circuit | ANDs |
//! |---|---|---|
//! | `not`, `concat`, `extract`, `zext`, `sext` | wiring | 0 |
//! | `and`, `or` / `xor` | bitwise | `w` / `3w` |
//! | `add`, `sub`, `neg` | ripple carry (7-AND full adders) | `≈ 7w` |
//! | `mul` | shift-and-add (`arith.rs`) | `≈ 4w²` |
//! | `udiv`, `urem` (shared) | restoring divider, triangular (`div.rs`) | `≈ 5w²` |
//! | `sdiv`, `srem` (shared) | magnitudes through the unsigned divider | `≈ 5w² + 20w` |
//! | `shl`, `lshr`, `ashr` | barrel shifter plus over-width override (`shift.rs`) | `≈ 3w⌈log2 w⌉` |
//! | `eq` / `ult`, `ule`, `slt`, `sle` | XNOR tree / carry chain | `4w` |
//! | `ite` | multiplexers | `3w` |
//!
//! Measured at 64 bits (`benches/blast.rs`): `mul` 15,878 ANDs, `udiv`/`urem` 20,734 (one
//! divider for both), `sdiv`/`srem` 22,261; 32 bits: `mul` 3,846, `udiv` 5,246.
//!
//! Constant operand bits fold through [`Aig::and`]'s constant propagation: a term whose
//! variables are all bound to constant literals blasts to constants without any AND node.

mod arith;
mod div;
mod shift;

/// Word comparisons on bit vectors of AIG literals (least significant bit first).
pub(crate) use arith::{add, eq, less, less_signed, sub};

use crate::aig::{Aig, AigLit};
use crate::bv::{arity, Node, Op, TermId, TermManager, VarId};
use div::DivCache;
use shift::ShiftKind;
use std::collections::HashMap;

/// Bit-blasts terms of one [`TermManager`] into one [`Aig`].
///
/// Use the same term manager and AIG in every call on one blaster: the memo refers to both.
#[derive(Clone, Debug, Default)]
pub struct Blaster {
    memo: HashMap<TermId, Vec<AigLit>>,
    vars: HashMap<VarId, Vec<AigLit>>,
    div: DivCache,
}

impl Blaster {
    /// A blaster with nothing blasted and no variable bound.
    pub fn new() -> Blaster {
        Blaster::default()
    }

    /// Fix the bits (LSB first) of variable `var`, e.g. to latch or input literals.
    ///
    /// Panics if `var` already has bits (bound before, or blasted with fresh inputs): terms
    /// blasted earlier would disagree with the new bits. The width is checked when the
    /// variable is blasted.
    pub fn bind_var(&mut self, var: VarId, bits: Vec<AigLit>) {
        assert!(
            !self.vars.contains_key(&var),
            "variable {var:?} already has bits"
        );
        self.vars.insert(var, bits);
    }

    /// The bits of `var` (bound, or created as fresh inputs when first blasted).
    pub fn var_bits(&self, var: VarId) -> Option<&[AigLit]> {
        self.vars.get(&var).map(|v| v.as_slice())
    }

    /// The bits of `var`, creating fresh inputs of the variable's width if it has none yet.
    pub fn var_bits_or_fresh(
        &mut self,
        tm: &TermManager,
        aig: &mut Aig,
        var: VarId,
    ) -> Vec<AigLit> {
        let w = tm.var_info(var).sort.width();
        self.vars
            .entry(var)
            .or_insert_with(|| (0..w).map(|_| aig.input()).collect())
            .clone()
    }

    /// Every variable with bits, in no particular order.
    pub fn vars(&self) -> impl Iterator<Item = (VarId, &[AigLit])> {
        self.vars.iter().map(|(&v, b)| (v, b.as_slice()))
    }

    /// The bits of `t` if it has been blasted already.
    pub fn cached(&self, t: TermId) -> Option<&[AigLit]> {
        self.memo.get(&t).map(|v| v.as_slice())
    }

    /// The bits of `t`, LSB first (one literal for `bool`).
    pub fn blast(&mut self, tm: &TermManager, aig: &mut Aig, t: TermId) -> Vec<AigLit> {
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.memo.contains_key(&u) {
                continue;
            }
            match tm.node(u) {
                Node::Const(c) => {
                    let bits = (0..tm.width(u))
                        .map(|i| AigLit::constant((c >> i) & 1 == 1))
                        .collect();
                    self.memo.insert(u, bits);
                }
                Node::Var(v) => {
                    let bits = self.var_bits_or_fresh(tm, aig, v);
                    assert_eq!(
                        bits.len() as u32,
                        tm.width(u),
                        "bits bound to {v:?} have the wrong width"
                    );
                    self.memo.insert(u, bits);
                }
                Node::App(op, args) => {
                    let args = &args[..arity(op)];
                    if expanded {
                        let bits = self.apply(aig, op, args);
                        debug_assert_eq!(bits.len() as u32, tm.width(u));
                        self.memo.insert(u, bits);
                    } else {
                        stack.push((u, true));
                        stack.extend(
                            args.iter()
                                .filter(|a| !self.memo.contains_key(a))
                                .map(|&a| (a, false)),
                        );
                    }
                }
            }
        }
        self.memo[&t].clone()
    }

    /// The literal of a `bool` (or 1-bit) term.
    pub fn blast_bool(&mut self, tm: &TermManager, aig: &mut Aig, t: TermId) -> AigLit {
        let bits = self.blast(tm, aig, t);
        assert_eq!(
            bits.len(),
            1,
            "blast_bool on a term of width {}",
            bits.len()
        );
        bits[0]
    }

    /// The bits of `op` applied to already blasted arguments.
    fn apply(&mut self, aig: &mut Aig, op: Op, args: &[TermId]) -> Vec<AigLit> {
        let x = self.memo[&args[0]].clone();
        let y = args
            .get(1)
            .map(|a| self.memo[a].clone())
            .unwrap_or_default();
        let bitwise = |aig: &mut Aig, f: fn(&mut Aig, AigLit, AigLit) -> AigLit| {
            x.iter()
                .zip(&y)
                .map(|(&a, &b)| f(aig, a, b))
                .collect::<Vec<_>>()
        };
        match op {
            Op::Not => x.iter().map(|&l| !l).collect(),
            Op::And => bitwise(aig, Aig::and),
            Op::Or => bitwise(aig, Aig::or),
            Op::Xor => bitwise(aig, Aig::xor),
            Op::Neg => arith::neg(aig, &x),
            Op::Add => arith::add(aig, &x, &y),
            Op::Sub => arith::sub(aig, &x, &y),
            Op::Mul => arith::mul(aig, &x, &y),
            Op::Udiv => self.div.udivrem(aig, &x, &y).0,
            Op::Urem => self.div.udivrem(aig, &x, &y).1,
            Op::Sdiv => self.div.sdivrem(aig, &x, &y).0,
            Op::Srem => self.div.sdivrem(aig, &x, &y).1,
            Op::Shl => shift::shift(aig, &x, &y, ShiftKind::Left),
            Op::Lshr => shift::shift(aig, &x, &y, ShiftKind::LogicalRight),
            Op::Ashr => shift::shift(aig, &x, &y, ShiftKind::ArithRight),
            // concat(hi, lo): the second argument gives the low bits.
            Op::Concat => y.iter().chain(&x).copied().collect(),
            Op::Extract { hi, lo } => x[lo as usize..=hi as usize].to_vec(),
            Op::Zext(to) => extend(&x, to, AigLit::FALSE),
            Op::Sext(to) => extend(&x, to, x[x.len() - 1]),
            Op::Eq => vec![arith::eq(aig, &x, &y)],
            Op::Ult => vec![arith::less(aig, &x, &y, false)],
            Op::Ule => vec![arith::less(aig, &x, &y, true)],
            Op::Slt => vec![arith::less_signed(aig, &x, &y, false)],
            Op::Sle => vec![arith::less_signed(aig, &x, &y, true)],
            Op::Ite => {
                let c = x[0];
                let e = &self.memo[&args[2]];
                y.iter().zip(e).map(|(&t, &e)| aig.ite(c, t, e)).collect()
            }
        }
    }
}

/// `x` padded with `fill` up to `to` bits.
fn extend(x: &[AigLit], to: u32, fill: AigLit) -> Vec<AigLit> {
    let mut v = x.to_vec();
    v.resize(to as usize, fill);
    v
}

/// The unsigned value of `bits` (LSB first, at most 128) under the variable values of
/// [`Aig::eval_all`].
pub fn bits_value(values: &[bool], bits: &[AigLit]) -> u128 {
    bits.iter().enumerate().fold(0u128, |acc, (i, &l)| {
        acc | (Aig::lit_value(values, l) as u128) << i
    })
}
