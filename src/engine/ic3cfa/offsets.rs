//! Equalities read modulo an added constant, for the bit-level fallback's test of whether a
//! location's lemmas enumerate the values of one term ([`super::Ic3cfa::enumerated`]).
//!
//! IC3CFA's predecessors carry the constants of an edge's nondet values inside the terms they
//! substitute: through `x += 2a; y += 2b` with `a = 1, b = −1` the cube `x + y == 1` becomes
//! `(x + 2) + (y − 2) == 1`, and with other values other terms. Compared as terms, no two such
//! equalities share a term, so the fallback never sees an enumeration, although every one of
//! them says `x + y == k` for some `k` (the Jain programs of the IC3CFA thesis' set, whose
//! invariant is the parity of such a sum). Read as polynomials over `Z/2^w`
//! ([`crate::bv::poly`]), `t == c` is `p == c − o` with `p` the polynomial of `t` without its
//! constant `o`; equalities with the same `p` are the same term at different constants. This
//! holds modulo `2^w` whatever the values, and only the fallback reads it: the terms of
//! lemmas and queries stay as the predecessors built them.

use crate::bv::poly::{Converter, Poly};
use crate::bv::value::mask;
use crate::bv::{Node, Op, TermId, TermManager};
use std::collections::HashMap;

/// An equality `t == c` read as `p == v` (see the module doc): `p` by its number among the
/// polynomials seen, `v`, and whether `p` is `t` itself (`t`'s constant is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct OffsetEq {
    pub poly: usize,
    pub value: u128,
    term: Option<TermId>,
}

/// The polynomials of the equalities seen so far, memoised per literal.
#[derive(Default)]
pub(super) struct Offsets {
    /// Each literal seen ↦ its reading, `None` when it is no equality of a word term of at
    /// least two bits with a constant.
    read: HashMap<TermId, Option<OffsetEq>>,
    /// The polynomials without their constants, numbered, with their terms once made.
    numbers: HashMap<Poly, usize>,
    polys: Vec<(Poly, Option<TermId>)>,
}

impl Offsets {
    /// `lit` read as `p == v`, if it is an equality of a word term with a constant.
    pub fn read(&mut self, tm: &TermManager, lit: TermId) -> Option<OffsetEq> {
        if let Some(&r) = self.read.get(&lit) {
            return r;
        }
        let r = word_equality(tm, lit).map(|(t, c)| {
            let w = tm.width(t);
            let mut p = Converter::new(tm).poly(t, w);
            let o = p.coefficient(&Vec::new());
            p = p.sub(&Poly::constant(o, w));
            let poly = match self.numbers.get(&p) {
                Some(&n) => n,
                None => {
                    self.numbers.insert(p.clone(), self.polys.len());
                    self.polys.push((p, None));
                    self.polys.len() - 1
                }
            };
            OffsetEq {
                poly,
                value: c.wrapping_sub(o) & mask(w),
                term: (o == 0).then_some(t),
            }
        });
        self.read.insert(lit, r);
        r
    }

    /// A term whose value is the polynomial of `eq`: the equality's own term when its
    /// constant is 0 (so an equality of a plain term splits into that term's bits), else the
    /// polynomial written as a term.
    pub fn term(&mut self, tm: &mut TermManager, eq: OffsetEq) -> TermId {
        if let Some(t) = eq.term {
            return t;
        }
        let (p, made) = &mut self.polys[eq.poly];
        *made.get_or_insert_with(|| p.term(tm))
    }
}

/// `t == c` when `lit` is an equality of a word term of at least two bits with a constant.
fn word_equality(tm: &TermManager, lit: TermId) -> Option<(TermId, u128)> {
    let [a, b] = match tm.node(lit) {
        Node::App(Op::Eq, [a, b, _]) => [a, b],
        _ => return None,
    };
    if tm.sort(a).is_bool() || tm.width(a) < 2 {
        return None;
    }
    match (tm.const_value(a), tm.const_value(b)) {
        (None, Some(c)) => Some((a, c)),
        (Some(c), None) => Some((b, c)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::Sort;

    #[test]
    fn sums_that_differ_in_their_constants_read_as_one_polynomial() {
        let mut tm = TermManager::new();
        let x = tm.var("x", Sort::Bv(8));
        let y = tm.var("y", Sort::Bv(8));
        let k = |tm: &mut TermManager, c| tm.bv_const(c, 8);
        // (x + 2) + (y − 2) == 1, (x + 4) + y == 1, x + y == 3, x − y == 1.
        let (c2, c4, c1, c3) = (k(&mut tm, 2), k(&mut tm, 4), k(&mut tm, 1), k(&mut tm, 3));
        let (a, b) = (tm.add(x, c2), tm.sub(y, c2));
        let s1 = tm.add(a, b);
        let e1 = tm.eq(s1, c1);
        let a4 = tm.add(x, c4);
        let s2 = tm.add(a4, y);
        let e2 = tm.eq(s2, c1);
        let s3 = tm.add(x, y);
        let e3 = tm.eq(s3, c3);
        let d = tm.sub(x, y);
        let e4 = tm.eq(d, c1);
        let mut o = Offsets::default();
        let r1 = o.read(&tm, e1).expect("an equality");
        let r2 = o.read(&tm, e2).expect("an equality");
        let r3 = o.read(&tm, e3).expect("an equality");
        let r4 = o.read(&tm, e4).expect("an equality");
        assert_eq!((r2.poly, r3.poly), (r1.poly, r1.poly));
        assert_ne!(r4.poly, r1.poly);
        // x + y == 1, x + y == 253 (1 − 4 mod 256), x + y == 3.
        assert_eq!((r1.value, r2.value, r3.value), (1, 253, 3));
        // Split into bits: x + y's own term for the equality over it, and for the others the
        // polynomial's term, whose value is x + y's.
        assert_eq!(o.term(&mut tm, r3), s3);
        let t2 = o.term(&mut tm, r2);
        let mut values = crate::bv::Valuation::of_terms(&tm, [(x, 100), (y, 57)]);
        assert_eq!(values.of(&tm, t2), 157);
        let lt = tm.ult(x, y);
        assert_eq!(o.read(&tm, lt), None);
    }
}
