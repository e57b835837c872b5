//! Rules of the arithmetic operators: negation, addition, subtraction, multiplication,
//! division, remainder and shifts (all modulo `2^w`).

use super::{Node, Op, Redex, TermId, TermManager};

/// `−(−x) = x`.
pub(super) fn neg_neg(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    match tm.node(r.a[0]) {
        Node::App(Op::Neg, inner) => Some(inner[0]),
        _ => None,
    }
}

/// `x + 0 = x`.
pub(super) fn add_zero(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    match r.constant_and_other()? {
        (0, other) => Some(other),
        _ => None,
    }
}

/// `(t + c) + d = t + (c + d)`, modulo `2^w`.
pub(super) fn add_constants(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (d, other) = r.constant_and_other()?;
    let (t, e) = tm.plus_constant(other)?;
    let sum = tm.constant(d.wrapping_add(e) & r.ones(), r.sort);
    Some(tm.app(Op::Add, &[t, sum]))
}

/// `x − 0 = x`.
pub(super) fn sub_zero(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.c1 == Some(0)).then_some(r.a[0])
}

/// `x − x = 0`.
pub(super) fn sub_self(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.a[0] == r.a[1]).then(|| tm.constant(0, r.sort))
}

/// `0 − x = −x`.
pub(super) fn zero_sub(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.c0 == Some(0)).then(|| tm.app(Op::Neg, &[r.a[1]]))
}

/// `x · 0 = 0`.
pub(super) fn mul_zero(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.constant_and_other()?.0 == 0).then(|| tm.constant(0, r.sort))
}

/// `x · 1 = x`.
pub(super) fn mul_one(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    match r.constant_and_other()? {
        (1, other) => Some(other),
        _ => None,
    }
}

/// `x / 1 = x`, signed and unsigned.
pub(super) fn div_one(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.c1 == Some(1)).then_some(r.a[0])
}

/// `x % 1 = 0`, signed and unsigned.
pub(super) fn rem_one(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.c1 == Some(1)).then(|| tm.constant(0, r.sort))
}

/// A shift by 0 is its first argument.
pub(super) fn shift_by_zero(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.c1 == Some(0)).then_some(r.a[0])
}

/// A shift of 0 is 0.
pub(super) fn shift_of_zero(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.c0 == Some(0)).then_some(r.a[0])
}

/// A logical shift by at least the width is 0 (SMT-LIB's semantics).
pub(super) fn shift_overwide(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let s = r.c1?;
    (s >= r.width() as u128 && r.op != Op::Ashr).then(|| tm.constant(0, r.sort))
}
