//! Shifts: a logarithmic barrel shifter.
//!
//! For width `w`, let `k = ⌈log2 w⌉`. Stage `j < k` shifts by `2^j` when bit `j` of the
//! amount is set (one multiplexer, 3 ANDs, per bit and stage); then, if any amount bit at
//! position `k` or higher is set, the result is overridden by the fill (0, or the sign bit for
//! `ashr`). Amounts in `w..2^k` shift every bit out in the stages already, so the result is the
//! fill as SMT-LIB requires. Size: about `3wk + 2w` ANDs (64 bits: ≈ 1.3k).

use crate::aig::{Aig, AigLit};

/// The direction and fill of a shift.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum ShiftKind {
    /// `shl`: towards the most significant bit, filling with 0.
    Left,
    /// `lshr`: towards the least significant bit, filling with 0.
    LogicalRight,
    /// `ashr`: towards the least significant bit, filling with the sign bit.
    ArithRight,
}

/// `a` shifted by the unsigned amount `s` (same width as `a`).
pub(super) fn shift(aig: &mut Aig, a: &[AigLit], s: &[AigLit], kind: ShiftKind) -> Vec<AigLit> {
    debug_assert_eq!(a.len(), s.len());
    let w = a.len();
    let fill = match kind {
        ShiftKind::ArithRight => a[w - 1],
        _ => AigLit::FALSE,
    };
    // k = ⌈log2 w⌉ (0 for w = 1); k ≤ w always.
    let k = (usize::BITS - (w - 1).leading_zeros()) as usize;
    let mut cur = a.to_vec();
    for (j, &sj) in s[..k].iter().enumerate() {
        let d = 1usize << j;
        let next: Vec<AigLit> = (0..w)
            .map(|i| {
                let src = match kind {
                    ShiftKind::Left => i.checked_sub(d).map_or(AigLit::FALSE, |x| cur[x]),
                    _ => cur.get(i + d).copied().unwrap_or(fill),
                };
                aig.ite(sj, src, cur[i])
            })
            .collect();
        cur = next;
    }
    let over = aig.or_all(s[k..].iter().copied());
    cur.iter().map(|&x| aig.ite(over, fill, x)).collect()
}
