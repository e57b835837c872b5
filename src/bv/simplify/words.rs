//! Rules of the operators on words: extraction, extension and the comparisons, with the
//! narrowing rewrites of [`super::super::narrow`] as rules of their own.

use super::{value, Node, Op, Redex, TermId, TermManager};

/// The bits of `r` when it is an extraction.
fn bits(r: &Redex) -> Option<(u32, u32)> {
    match r.op {
        Op::Extract { hi, lo } => Some((hi, lo)),
        _ => None,
    }
}

/// Extracting every bit of `x` is `x`.
pub(super) fn extract_whole(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (hi, lo) = bits(r)?;
    (lo == 0 && hi + 1 == tm.width(r.a[0])).then_some(r.a[0])
}

/// Bits of bits of `x` are bits of `x`.
pub(super) fn extract_extract(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (hi, lo) = bits(r)?;
    match tm.node(r.a[0]) {
        Node::App(Op::Extract { lo: lo2, .. }, inner) => Some(tm.app(
            Op::Extract {
                hi: hi + lo2,
                lo: lo + lo2,
            },
            &[inner[0]],
        )),
        _ => None,
    }
}

/// Bits of `concat(h, l)` that lie in `l` are bits of `l`.
pub(super) fn extract_concat_low(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (hi, lo) = bits(r)?;
    match tm.node(r.a[0]) {
        Node::App(Op::Concat, inner) if hi < tm.width(inner[1]) => {
            Some(tm.app(Op::Extract { hi, lo }, &[inner[1]]))
        }
        _ => None,
    }
}

/// Bits of `concat(h, l)` that lie in `h` are bits of `h`.
pub(super) fn extract_concat_high(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (hi, lo) = bits(r)?;
    let Node::App(Op::Concat, inner) = tm.node(r.a[0]) else {
        return None;
    };
    let lw = tm.width(inner[1]);
    (lo >= lw).then(|| {
        let (hi, lo) = (hi - lw, lo - lw);
        tm.app(Op::Extract { hi, lo }, &[inner[0]])
    })
}

/// The argument of an extension, when `t` is one.
fn extended(tm: &TermManager, t: TermId) -> Option<TermId> {
    match tm.node(t) {
        Node::App(Op::Zext(_) | Op::Sext(_), inner) => Some(inner[0]),
        _ => None,
    }
}

/// Bits of `ext x` that lie in `x` are bits of `x`.
pub(super) fn extract_extended(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (hi, lo) = bits(r)?;
    let x = extended(tm, r.a[0])?;
    (hi < tm.width(x)).then(|| tm.app(Op::Extract { hi, lo }, &[x]))
}

/// Bits of `ext x` beyond `x`'s narrowed ([`TermManager::narrow_extract`]).
pub(super) fn narrow_extract(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let (hi, lo) = bits(r)?;
    extended(tm, r.a[0])?;
    tm.narrow_extract(r.a[0], hi, lo)
}

/// An extension to the argument's own width is the argument.
pub(super) fn extend_same_width(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let to = match r.op {
        Op::Zext(to) | Op::Sext(to) => to,
        _ => return None,
    };
    (to == tm.width(r.a[0])).then_some(r.a[0])
}

/// Extensions of extensions composed ([`TermManager::narrow_extension`]).
pub(super) fn narrow_extension(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    tm.narrow_extension(r.op, r.a[0])
}

/// `x = x` is true.
pub(super) fn eq_self(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.a[0] == r.a[1]).then(|| tm.tru())
}

/// The constant and the other argument of an equation between Booleans.
fn bool_equation(tm: &TermManager, r: &Redex) -> Option<(u128, TermId)> {
    if tm.sort(r.a[0]).is_bool() {
        r.constant_and_other()
    } else {
        None
    }
}

/// `(b = true) = b`.
pub(super) fn eq_bool_true(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    match bool_equation(tm, r)? {
        (1, other) => Some(other),
        _ => None,
    }
}

/// `(b = false) = ¬b`.
pub(super) fn eq_bool_false(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    match bool_equation(tm, r)? {
        (0, other) => Some(tm.app(Op::Not, &[other])),
        _ => None,
    }
}

/// `(x = ¬x)` is false.
pub(super) fn eq_complement(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    tm.is_negation_of(r.a[0], r.a[1]).then(|| tm.fals())
}

/// `t + c = d  ⟺  t = d − c` (adding a constant is a bijection modulo `2^w`).
pub(super) fn eq_add_constant(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    if tm.sort(r.a[0]).is_bool() {
        return None;
    }
    let m = value::mask(tm.width(r.a[0]));
    let (d, other) = r.constant_and_other()?;
    let (t, e) = tm.plus_constant(other)?;
    let sort = tm.sort(t);
    let k = tm.constant(d.wrapping_sub(e) & m, sort);
    Some(tm.app(Op::Eq, &[t, k]))
}

/// Comparisons of extensions narrowed ([`TermManager::narrow_comparison`]; equations between
/// Booleans are left alone).
pub(super) fn narrow_comparison(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    if r.op == Op::Eq && tm.sort(r.a[0]).is_bool() {
        return None;
    }
    tm.narrow_comparison(r.op, r.a[0], r.a[1])
}

/// `x < x` is false, signed and unsigned.
pub(super) fn lt_self(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.a[0] == r.a[1]).then(|| tm.fals())
}

/// `x <u 0` is false.
pub(super) fn ult_zero(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.op == Op::Ult && r.c1 == Some(0)).then(|| tm.fals())
}

/// `x ≤ x` is true, signed and unsigned.
pub(super) fn le_self(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    (r.a[0] == r.a[1]).then(|| tm.tru())
}

/// `0 ≤u x` and `x ≤u 1…1` are true.
pub(super) fn ule_trivial(tm: &mut TermManager, r: &Redex) -> Option<TermId> {
    let ones = value::mask(tm.width(r.a[0]));
    (r.op == Op::Ule && (r.c0 == Some(0) || r.c1 == Some(ones))).then(|| tm.tru())
}
