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

/// `(t + c) + u = (t + u) + c` for `u` not a constant, modulo `2^w`: the constants of a sum
/// gather at its top, so that sums that differ only in their constants share the term of
/// their variable part (`(x + 2) + (y + 4)` becomes `(x + y) + 6`, and `(x + y) + 6 == 1`
/// then `x + y == −5`). Each application moves one constant up a level, so rewriting ends.
pub(super) fn add_lift_constant(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    if r.c0.is_some() || r.c1.is_some() {
        return None;
    }
    let (i, (t, c)) = (0..2).find_map(|i| Some((i, tm.plus_constant(r.a[i])?)))?;
    let inner = tm.app(Op::Add, &[t, r.a[1 - i]]);
    let c = tm.constant(c, r.sort);
    Some(tm.app(Op::Add, &[inner, c]))
}

/// `x − 0 = x`.
pub(super) fn sub_zero(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.c1 == Some(0)).then_some(r.a[0])
}

/// `(t + c) − u = (t − u) + c` and `u − (t + c) = (u − t) + (−c)` for `u` not a constant,
/// modulo `2^w`: the constants of a difference gather at its top, as in a sum
/// ([`add_lift_constant`]).
pub(super) fn sub_lift_constant(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    if r.c0.is_some() || r.c1.is_some() {
        return None;
    }
    let (inner, c) = match (tm.plus_constant(r.a[0]), tm.plus_constant(r.a[1])) {
        (Some((t, c)), _) => (tm.app(Op::Sub, &[t, r.a[1]]), c),
        (None, Some((t, c))) => (tm.app(Op::Sub, &[r.a[0], t]), c.wrapping_neg() & r.ones()),
        (None, None) => return None,
    };
    let c = tm.constant(c, r.sort);
    Some(tm.app(Op::Add, &[inner, c]))
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

/// `c · (t + d) = c · t + c · d`, modulo `2^w`: a multiple of a sum with a constant keeps
/// its constant where [`add_lift_constant`] gathers it (`4 · (x + 2)` becomes `4 · x + 8`).
pub(super) fn mul_over_add_constant(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (c, other) = r.constant_and_other()?;
    let (t, d) = tm.plus_constant(other)?;
    let ct = {
        let k = tm.constant(c, r.sort);
        tm.app(Op::Mul, &[k, t])
    };
    let cd = tm.constant(c.wrapping_mul(d) & r.ones(), r.sort);
    Some(tm.app(Op::Add, &[ct, cd]))
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
