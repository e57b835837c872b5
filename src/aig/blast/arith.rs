//! Adders, negation, the multiplier and the comparators, over bit vectors given LSB first.
//!
//! Circuits and sizes (AND nodes for `w`-bit operands without constant bits):
//! - full adder: 7 ANDs (the `a ∧ b` of the first XOR is shared with the carry);
//!   ripple-carry `add`/`sub`: `7w - 1`; `neg` and `cond_neg` are incrementer chains;
//! - `mul`: shift-and-add of partial products `a ∧ b_i` into the bits `i..w` of the
//!   accumulator; rows whose multiplier bit is constant `false` are skipped, the first row is
//!   taken as is, and the top bit of each row skips its carry: about `4w²` ANDs;
//! - `less` (`<` or `≤`, unsigned): a carry chain of 4 ANDs per bit; signed comparisons flip
//!   the sign bits first (free); `eq`: 3 ANDs per bit plus the final conjunction.
//!
//! Every function relies on [`Aig::and`]'s constant propagation, so constant operands fold.

use crate::aig::{Aig, AigLit};

/// `(a ⊕ b, a ∧ b)`: the XOR is built as `¬(a ∧ b) ∧ ¬(¬a ∧ ¬b)`, so `a ∧ b` is shared.
pub(super) fn xor_and(aig: &mut Aig, a: AigLit, b: AigLit) -> (AigLit, AigLit) {
    let both = aig.and(a, b);
    let neither = aig.and(!a, !b);
    (aig.and(!both, !neither), both)
}

/// A full adder: `(sum, carry)` of `a + b + c`.
fn full_add(aig: &mut Aig, a: AigLit, b: AigLit, c: AigLit) -> (AigLit, AigLit) {
    let (t, ab) = xor_and(aig, a, b);
    let (s, tc) = xor_and(aig, t, c);
    (s, aig.or(ab, tc))
}

/// `a + b + cin` modulo `2^w` (`a` and `b` of equal length `w`), and the carry out when
/// `want_carry` (otherwise the top bit skips its carry and `false` is returned).
pub(super) fn add_carry(
    aig: &mut Aig,
    a: &[AigLit],
    b: &[AigLit],
    cin: AigLit,
    want_carry: bool,
) -> (Vec<AigLit>, AigLit) {
    debug_assert_eq!(a.len(), b.len());
    let w = a.len();
    let mut sum = Vec::with_capacity(w);
    let mut c = cin;
    for i in 0..w {
        if i + 1 == w && !want_carry {
            let (t, _) = xor_and(aig, a[i], b[i]);
            let (s, _) = xor_and(aig, t, c);
            sum.push(s);
            c = AigLit::FALSE;
        } else {
            let (s, co) = full_add(aig, a[i], b[i], c);
            sum.push(s);
            c = co;
        }
    }
    (sum, c)
}

/// `a + b` modulo `2^w`.
pub(crate) fn add(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    add_carry(aig, a, b, AigLit::FALSE, false).0
}

/// `a - b` modulo `2^w`, as `a + ¬b + 1`.
pub(crate) fn sub(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    let nb: Vec<AigLit> = b.iter().map(|&l| !l).collect();
    add_carry(aig, a, &nb, AigLit::TRUE, false).0
}

/// `x + c` for a single bit `c` (an incrementer: one half adder per bit).
fn increment(aig: &mut Aig, x: &[AigLit], c: AigLit) -> Vec<AigLit> {
    let mut carry = c;
    let mut out = Vec::with_capacity(x.len());
    for (i, &b) in x.iter().enumerate() {
        if i + 1 == x.len() {
            out.push(aig.xor(b, carry));
        } else {
            let (s, co) = xor_and(aig, b, carry);
            out.push(s);
            carry = co;
        }
    }
    out
}

/// `-x` modulo `2^w`, as `¬x + 1`.
pub(super) fn neg(aig: &mut Aig, x: &[AigLit]) -> Vec<AigLit> {
    let nx: Vec<AigLit> = x.iter().map(|&l| !l).collect();
    increment(aig, &nx, AigLit::TRUE)
}

/// `c ? -x : x`, as `(x ⊕ c) + c`.
pub(super) fn cond_neg(aig: &mut Aig, x: &[AigLit], c: AigLit) -> Vec<AigLit> {
    let flipped: Vec<AigLit> = x.iter().map(|&l| aig.xor(l, c)).collect();
    increment(aig, &flipped, c)
}

/// `a · b` modulo `2^w` by shift-and-add.
pub(super) fn mul(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    debug_assert_eq!(a.len(), b.len());
    let w = a.len();
    // Scan the operand with more constant bits: its constant-false bits skip whole rows.
    let consts = |x: &[AigLit]| x.iter().filter(|l| l.is_const()).count();
    let (a, b) = if consts(a) > consts(b) {
        (b, a)
    } else {
        (a, b)
    };
    let mut acc = vec![AigLit::FALSE; w];
    let mut first = true;
    for i in 0..w {
        if b[i] == AigLit::FALSE {
            continue;
        }
        let row: Vec<AigLit> = a[..w - i].iter().map(|&x| aig.and(x, b[i])).collect();
        if first {
            acc[i..].copy_from_slice(&row);
            first = false;
        } else {
            let s = add(aig, &acc[i..], &row);
            acc[i..].copy_from_slice(&s);
        }
    }
    acc
}

/// `a < b` (unsigned), or `a ≤ b` when `or_equal`: a carry chain from the least significant
/// bit, where `lt` says whether the low bits so far compare as required.
pub(crate) fn less(aig: &mut Aig, a: &[AigLit], b: &[AigLit], or_equal: bool) -> AigLit {
    debug_assert_eq!(a.len(), b.len());
    let mut lt = AigLit::constant(or_equal);
    for (&x, &y) in a.iter().zip(b) {
        let smaller = aig.and(!x, y);
        let bigger = aig.and(x, !y);
        let keep = aig.and(lt, !bigger);
        lt = aig.or(smaller, keep);
    }
    lt
}

/// `a < b` (or `≤`) on two's-complement values: the unsigned comparison with the sign bits
/// complemented.
pub(crate) fn less_signed(aig: &mut Aig, a: &[AigLit], b: &[AigLit], or_equal: bool) -> AigLit {
    let flip = |x: &[AigLit]| {
        let mut v = x.to_vec();
        if let Some(top) = v.last_mut() {
            *top = !*top;
        }
        v
    };
    less(aig, &flip(a), &flip(b), or_equal)
}

/// `a = b`.
pub(crate) fn eq(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> AigLit {
    debug_assert_eq!(a.len(), b.len());
    let mut acc = AigLit::TRUE;
    for (&x, &y) in a.iter().zip(b) {
        let (d, _) = xor_and(aig, x, y);
        acc = aig.and(acc, !d);
    }
    acc
}
