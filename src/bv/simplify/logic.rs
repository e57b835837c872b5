//! Rules of the Boolean and bitwise operators: `not`, `and`, `or`, `xor` and `ite`.

use super::{Node, Op, Redex, TermId, TermManager};

/// `¬¬x = x`.
pub(super) fn not_not(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    match tm.node(r.a[0]) {
        Node::App(Op::Not, inner) => Some(inner[0]),
        _ => None,
    }
}

/// The absorbing and the neutral element of `r.op` ∈ {and, or}.
fn and_or_elements(r: &Redex) -> (u128, u128) {
    if r.op == Op::And {
        (0, r.ones())
    } else {
        (r.ones(), 0)
    }
}

/// `x ∧ 0 = 0`, `x ∨ 1…1 = 1…1`.
pub(super) fn and_or_absorbing(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (absorb, _) = and_or_elements(r);
    let (c, _) = r.constant_and_other()?;
    (c == absorb).then(|| tm.constant(absorb, r.sort))
}

/// `x ∧ 1…1 = x`, `x ∨ 0 = x`.
pub(super) fn and_or_neutral(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (_, neutral) = and_or_elements(r);
    let (c, other) = r.constant_and_other()?;
    (c == neutral).then_some(other)
}

/// `x ∧ x = x ∨ x = x`.
pub(super) fn and_or_idempotent(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.a[0] == r.a[1]).then_some(r.a[0])
}

/// `x ∧ ¬x = 0`, `x ∨ ¬x = 1…1`.
pub(super) fn and_or_complement(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (absorb, _) = and_or_elements(r);
    tm.is_negation_of(r.a[0], r.a[1])
        .then(|| tm.constant(absorb, r.sort))
}

/// The operator dual to `op` ∈ {and, or}, and the arguments of `t` when it applies it.
fn dual_operands(tm: &TermManager, op: Op, t: TermId) -> (Op, Option<[TermId; 2]>) {
    let inner = if op == Op::And { Op::Or } else { Op::And };
    match tm.node(t) {
        Node::App(o, args) if o == inner => (inner, Some([args[0], args[1]])),
        _ => (inner, None),
    }
}

/// Absorption: `x ∧ (x ∨ y) = x`, `x ∨ (x ∧ y) = x`.
pub(super) fn absorption(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (a, b) = (r.a[0], r.a[1]);
    let (_, oa) = dual_operands(tm, r.op, a);
    let (_, ob) = dual_operands(tm, r.op, b);
    if ob.is_some_and(|o| o.contains(&a)) {
        return Some(a);
    }
    oa.is_some_and(|o| o.contains(&b)).then_some(b)
}

/// Factoring of a shared operand: `(x ∨ y) ∧ (x ∨ z) = x ∨ (y ∧ z)`, and dually. The guard of
/// an `if`/`else` merged into one edge is `(c ∧ b) ∨ (c ∧ ¬b)`, which becomes `c`, so whether
/// the edge is taken no longer needs a case split on `b` in a SAT solver. The result is smaller
/// than the term it replaces.
pub(super) fn factoring(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (inner, oa) = dual_operands(tm, r.op, r.a[0]);
    let (_, ob) = dual_operands(tm, r.op, r.a[1]);
    let (oa, ob) = (oa?, ob?);
    for i in 0..2 {
        for j in 0..2 {
            if oa[i] == ob[j] {
                let rest = tm.app(r.op, &[oa[1 - i], ob[1 - j]]);
                return Some(tm.app(inner, &[oa[i], rest]));
            }
        }
    }
    None
}

/// `x ⊕ x = 0`.
pub(super) fn xor_self(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.a[0] == r.a[1]).then(|| tm.constant(0, r.sort))
}

/// `x ⊕ 0 = x`.
pub(super) fn xor_zero(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    match r.constant_and_other()? {
        (0, other) => Some(other),
        _ => None,
    }
}

/// `x ⊕ 1…1 = ¬x`.
pub(super) fn xor_ones(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (c, other) = r.constant_and_other()?;
    (c == r.ones()).then(|| tm.app(Op::Not, &[other]))
}

/// `x ⊕ ¬x = 1…1`.
pub(super) fn xor_complement(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    tm.is_negation_of(r.a[0], r.a[1])
        .then(|| tm.constant(r.ones(), r.sort))
}

/// `ite(c, t, e)` with a constant condition is `t` or `e`.
pub(super) fn ite_constant(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    r.c0.map(|c| if c != 0 { r.a[1] } else { r.a[2] })
}

/// `ite(c, t, t) = t`.
pub(super) fn ite_same_branches(_: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.a[1] == r.a[2]).then_some(r.a[1])
}

/// `ite(¬c, t, e) = ite(c, e, t)`.
pub(super) fn ite_not_condition(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    match tm.node(r.a[0]) {
        Node::App(Op::Not, inner) => Some(tm.app(Op::Ite, &[inner[0], r.a[2], r.a[1]])),
        _ => None,
    }
}

/// The constant branches of a Boolean `ite` (`None` for one of another sort).
fn bool_branches(tm: &TermManager, r: &Redex) -> Option<(Option<u128>, Option<u128>)> {
    r.sort.is_bool().then(|| (r.c1, tm.const_value(r.a[2])))
}

/// `ite(c, true, false) = c`.
pub(super) fn ite_bool_identity(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (bool_branches(tm, r)? == (Some(1), Some(0))).then_some(r.a[0])
}

/// `ite(c, false, true) = ¬c`.
pub(super) fn ite_bool_negation(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (bool_branches(tm, r)? == (Some(0), Some(1))).then(|| tm.app(Op::Not, &[r.a[0]]))
}

/// `ite(c, true, e) = c ∨ e`.
pub(super) fn ite_then_true(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (bool_branches(tm, r)?.0 == Some(1)).then(|| tm.app(Op::Or, &[r.a[0], r.a[2]]))
}

/// `ite(c, false, e) = ¬c ∧ e`.
pub(super) fn ite_then_false(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    if bool_branches(tm, r)?.0 != Some(0) {
        return None;
    }
    let nc = tm.app(Op::Not, &[r.a[0]]);
    Some(tm.app(Op::And, &[nc, r.a[2]]))
}

/// `ite(c, t, false) = c ∧ t`.
pub(super) fn ite_else_false(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (bool_branches(tm, r)?.1 == Some(0)).then(|| tm.app(Op::And, &[r.a[0], r.a[1]]))
}

/// `ite(c, t, true) = ¬c ∨ t`.
pub(super) fn ite_else_true(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    if bool_branches(tm, r)?.1 != Some(1) {
        return None;
    }
    let nc = tm.app(Op::Not, &[r.a[0]]);
    Some(tm.app(Op::Or, &[nc, r.a[1]]))
}
