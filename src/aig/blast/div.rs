//! Division: a restoring divider that produces quotient and remainder together, and the signed
//! variants on top of it.
//!
//! Unsigned (`w` bits): step `i` (from the most significant quotient bit down) shifts the next
//! dividend bit into the partial remainder `r'`, which then has only `n = w - i` significant
//! bits. The step subtracts the low `n` bits of the divisor (a ripple chain with carry out) and
//! sets `q_i = carry ∧ ¬(b_n ∨ … ∨ b_{w-1})` — a divisor bit at or above `n` makes `b > r'`.
//! The new remainder is `q_i ? r' - b : r'` (multiplexers). The triangle costs about `10n`
//! ANDs per step, `5w²` in all (64 bits: ≈ 21k). With `b = 0` every step subtracts nothing
//! and succeeds, so `q = ~0` and `r = a`: exactly SMT-LIB's `udiv`/`urem` by zero, without
//! an extra multiplexer.
//!
//! Signed: divide the magnitudes (`cond_neg` on the sign bits, so `MIN` is its own
//! magnitude read as unsigned), negate the quotient when the signs differ and the remainder
//! when the dividend is negative. By zero this gives `sdiv a 0 = (a < 0 ? 1 : ~0)` and
//! `srem a 0 = a`, again as SMT-LIB.
//!
//! [`DivCache`] memoises dividers by their operand literals, so `udiv` and `urem` (or `sdiv`
//! and `srem`) of the same operands share one divider.

use super::arith::{add_carry, cond_neg};
use crate::aig::{Aig, AigLit};
use std::collections::HashMap;

type Bits = Vec<AigLit>;

/// Dividers already built, by (dividend, divisor) literals.
#[derive(Clone, Debug, Default)]
pub(super) struct DivCache {
    built: HashMap<(Bits, Bits), (Bits, Bits)>,
}

impl DivCache {
    /// `(a udiv b, a urem b)`.
    pub(super) fn udivrem(&mut self, aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> (Bits, Bits) {
        let key = (a.to_vec(), b.to_vec());
        if let Some(r) = self.built.get(&key) {
            return r.clone();
        }
        let r = restoring(aig, a, b);
        self.built.insert(key, r.clone());
        r
    }

    /// `(a sdiv b, a srem b)`.
    pub(super) fn sdivrem(&mut self, aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> (Bits, Bits) {
        let w = a.len();
        let (na, nb) = (a[w - 1], b[w - 1]);
        let ua = cond_neg(aig, a, na);
        let ub = cond_neg(aig, b, nb);
        let (q, r) = self.udivrem(aig, &ua, &ub);
        let nq = aig.xor(na, nb);
        (cond_neg(aig, &q, nq), cond_neg(aig, &r, na))
    }
}

/// The restoring divider described in the module documentation.
fn restoring(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> (Bits, Bits) {
    debug_assert_eq!(a.len(), b.len());
    let w = a.len();
    // high[n] = b_n ∨ … ∨ b_{w-1}, so high[w] = false.
    let mut high = vec![AigLit::FALSE; w + 1];
    for n in (0..w).rev() {
        high[n] = aig.or(high[n + 1], b[n]);
    }
    let nb: Bits = b.iter().map(|&l| !l).collect();
    let mut q = vec![AigLit::FALSE; w];
    let mut r: Bits = Vec::with_capacity(w);
    for i in (0..w).rev() {
        let n = w - i;
        let mut shifted = Vec::with_capacity(n);
        shifted.push(a[i]);
        shifted.extend_from_slice(&r);
        let (diff, no_borrow) = add_carry(aig, &shifted, &nb[..n], AigLit::TRUE, true);
        let qi = aig.and(no_borrow, !high[n]);
        q[i] = qi;
        r = diff
            .iter()
            .zip(&shifted)
            .map(|(&d, &s)| aig.ite(qi, d, s))
            .collect();
    }
    (q, r)
}
