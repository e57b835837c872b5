//! The local rewrites applied by [`TermManager::app`] after constant folding: identities,
//! absorbing and neutral elements, double negations, `ite` with constant or equal branches,
//! extractions through concatenations and extensions, and (in [`super::narrow`]) comparisons
//! and extensions narrowed to the width of the extended terms. Every rewrite is valid over
//! bit-vectors of the given widths; the property test in `tests.rs` checks each against
//! direct evaluation.

use super::{value, Node, Op, Sort, TermId, TermManager};

impl TermManager {
    /// Local rewrites that are valid over bit-vectors. Arguments of commutative operators are
    /// already sorted by id; at most one argument is constant here only if not all are.
    /// `(t, c)` when `x` is `t + c` with a constant `c`.
    fn plus_constant(&self, x: TermId) -> Option<(TermId, u128)> {
        match self.node(x) {
            Node::App(Op::Add, [p, q, _]) => match (self.const_value(p), self.const_value(q)) {
                (Some(c), None) => Some((q, c)),
                (None, Some(c)) => Some((p, c)),
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn simplify(&mut self, op: Op, a: [TermId; 3], sort: Sort) -> Option<TermId> {
        let w = sort.width();
        let ones = value::mask(w);
        let c0 = self.const_value(a[0]);
        let c1 = self.const_value(a[1]);
        match op {
            Op::Not => {
                if let Node::App(Op::Not, inner) = self.node(a[0]) {
                    return Some(inner[0]);
                }
            }
            Op::And | Op::Or => {
                let (absorb, neutral) = if op == Op::And { (0, ones) } else { (ones, 0) };
                for (c, other) in [(c0, a[1]), (c1, a[0])] {
                    match c {
                        Some(v) if v == absorb => return Some(self.constant(absorb, sort)),
                        Some(v) if v == neutral => return Some(other),
                        _ => {}
                    }
                }
                if a[0] == a[1] {
                    return Some(a[0]);
                }
                if self.is_negation_of(a[0], a[1]) {
                    return Some(self.constant(absorb, sort));
                }
                if let Some(t) = self.distribute(op, a[0], a[1]) {
                    return Some(t);
                }
            }
            Op::Xor => {
                if a[0] == a[1] {
                    return Some(self.constant(0, sort));
                }
                for (c, other) in [(c0, a[1]), (c1, a[0])] {
                    match c {
                        Some(0) => return Some(other),
                        Some(v) if v == ones => return Some(self.app(Op::Not, &[other])),
                        _ => {}
                    }
                }
                if self.is_negation_of(a[0], a[1]) {
                    return Some(self.constant(ones, sort));
                }
            }
            Op::Neg => {
                if let Node::App(Op::Neg, inner) = self.node(a[0]) {
                    return Some(inner[0]);
                }
            }
            Op::Add => {
                if c0 == Some(0) {
                    return Some(a[1]);
                }
                if c1 == Some(0) {
                    return Some(a[0]);
                }
                // (t + c) + d = t + (c + d), modulo 2^w.
                for (c, other) in [(c0, a[1]), (c1, a[0])] {
                    if let (Some(d), Some((t, e))) = (c, self.plus_constant(other)) {
                        let sum = self.constant(d.wrapping_add(e) & ones, sort);
                        return Some(self.app(Op::Add, &[t, sum]));
                    }
                }
            }
            Op::Sub => {
                if c1 == Some(0) {
                    return Some(a[0]);
                }
                if a[0] == a[1] {
                    return Some(self.constant(0, sort));
                }
                if c0 == Some(0) {
                    return Some(self.app(Op::Neg, &[a[1]]));
                }
            }
            Op::Mul => {
                for (c, other) in [(c0, a[1]), (c1, a[0])] {
                    match c {
                        Some(0) => return Some(self.constant(0, sort)),
                        Some(1) => return Some(other),
                        _ => {}
                    }
                }
            }
            Op::Udiv | Op::Sdiv => {
                if c1 == Some(1) {
                    return Some(a[0]);
                }
            }
            Op::Urem | Op::Srem => {
                if c1 == Some(1) {
                    return Some(self.constant(0, sort));
                }
            }
            Op::Shl | Op::Lshr | Op::Ashr => {
                if c1 == Some(0) {
                    return Some(a[0]);
                }
                if c0 == Some(0) {
                    return Some(a[0]);
                }
                if let Some(s) = c1 {
                    if s >= w as u128 && op != Op::Ashr {
                        return Some(self.constant(0, sort));
                    }
                }
            }
            Op::Extract { hi, lo } => {
                let aw = self.width(a[0]);
                if lo == 0 && hi + 1 == aw {
                    return Some(a[0]);
                }
                match self.node(a[0]) {
                    Node::App(Op::Extract { lo: lo2, .. }, inner) => {
                        return Some(self.app(
                            Op::Extract {
                                hi: hi + lo2,
                                lo: lo + lo2,
                            },
                            &[inner[0]],
                        ));
                    }
                    Node::App(Op::Concat, inner) => {
                        let lw = self.width(inner[1]);
                        if hi < lw {
                            return Some(self.app(Op::Extract { hi, lo }, &[inner[1]]));
                        }
                        if lo >= lw {
                            return Some(self.app(
                                Op::Extract {
                                    hi: hi - lw,
                                    lo: lo - lw,
                                },
                                &[inner[0]],
                            ));
                        }
                    }
                    Node::App(Op::Zext(_) | Op::Sext(_), inner) => {
                        let iw = self.width(inner[0]);
                        if hi < iw {
                            return Some(self.app(Op::Extract { hi, lo }, &[inner[0]]));
                        }
                        return self.narrow_extract(a[0], hi, lo);
                    }
                    _ => {}
                }
            }
            Op::Zext(to) | Op::Sext(to) => {
                if to == self.width(a[0]) {
                    return Some(a[0]);
                }
                return self.narrow_extension(op, a[0]);
            }
            Op::Eq => {
                if a[0] == a[1] {
                    return Some(self.tru());
                }
                if self.sort(a[0]).is_bool() {
                    for (c, other) in [(c0, a[1]), (c1, a[0])] {
                        match c {
                            Some(1) => return Some(other),
                            Some(0) => return Some(self.app(Op::Not, &[other])),
                            _ => {}
                        }
                    }
                }
                if self.is_negation_of(a[0], a[1]) {
                    return Some(self.fals());
                }
                if !self.sort(a[0]).is_bool() {
                    // t + c = d  ⟺  t = d − c (addition of a constant is a bijection mod 2^w).
                    let m = value::mask(self.width(a[0]));
                    for (c, other) in [(c0, a[1]), (c1, a[0])] {
                        if let (Some(d), Some((t, e))) = (c, self.plus_constant(other)) {
                            let sort = self.sort(t);
                            let k = self.constant(d.wrapping_sub(e) & m, sort);
                            return Some(self.app(Op::Eq, &[t, k]));
                        }
                    }
                    return self.narrow_comparison(op, a[0], a[1]);
                }
            }
            Op::Ult | Op::Slt => {
                if a[0] == a[1] {
                    return Some(self.fals());
                }
                if let Some(t) = self.narrow_comparison(op, a[0], a[1]) {
                    return Some(t);
                }
                if op == Op::Ult && c1 == Some(0) {
                    return Some(self.fals());
                }
            }
            Op::Ule | Op::Sle => {
                if a[0] == a[1] {
                    return Some(self.tru());
                }
                if let Some(t) = self.narrow_comparison(op, a[0], a[1]) {
                    return Some(t);
                }
                if op == Op::Ule && (c0 == Some(0) || c1 == Some(value::mask(self.width(a[0])))) {
                    return Some(self.tru());
                }
            }
            Op::Ite => {
                if let Some(c) = c0 {
                    return Some(if c != 0 { a[1] } else { a[2] });
                }
                if a[1] == a[2] {
                    return Some(a[1]);
                }
                if let Node::App(Op::Not, inner) = self.node(a[0]) {
                    return Some(self.app(Op::Ite, &[inner[0], a[2], a[1]]));
                }
                if sort.is_bool() {
                    let (t, e) = (c1, self.const_value(a[2]));
                    match (t, e) {
                        (Some(1), Some(0)) => return Some(a[0]),
                        (Some(0), Some(1)) => return Some(self.app(Op::Not, &[a[0]])),
                        (Some(1), _) => return Some(self.app(Op::Or, &[a[0], a[2]])),
                        (Some(0), _) => {
                            let nc = self.app(Op::Not, &[a[0]]);
                            return Some(self.app(Op::And, &[nc, a[2]]));
                        }
                        (_, Some(0)) => return Some(self.app(Op::And, &[a[0], a[1]])),
                        (_, Some(1)) => {
                            let nc = self.app(Op::Not, &[a[0]]);
                            return Some(self.app(Op::Or, &[nc, a[1]]));
                        }
                        _ => {}
                    }
                }
            }
            Op::Concat => {}
        }
        None
    }

    /// Absorption and factoring of a shared operand, for `op` ∈ {and, or} and `inner` the
    /// other one: `x op (x inner y) = x`, and `(x inner y) op (x inner z) = x inner (y op z)`.
    /// The guard of an `if`/`else` merged into one edge is `(c ∧ b) ∨ (c ∧ ¬b)`, which becomes
    /// `c`, so whether the edge is taken no longer needs a case split on `b` in a SAT solver.
    /// Both results are smaller than the term they replace.
    fn distribute(&mut self, op: Op, a: TermId, b: TermId) -> Option<TermId> {
        let inner = if op == Op::And { Op::Or } else { Op::And };
        let operands = |tm: &Self, t: TermId| match tm.node(t) {
            Node::App(o, args) if o == inner => Some([args[0], args[1]]),
            _ => None,
        };
        let (oa, ob) = (operands(self, a), operands(self, b));
        if ob.is_some_and(|o| o.contains(&a)) {
            return Some(a);
        }
        if oa.is_some_and(|o| o.contains(&b)) {
            return Some(b);
        }
        let (oa, ob) = (oa?, ob?);
        for i in 0..2 {
            for j in 0..2 {
                if oa[i] == ob[j] {
                    let rest = self.app(op, &[oa[1 - i], ob[1 - j]]);
                    return Some(self.app(inner, &[oa[i], rest]));
                }
            }
        }
        None
    }

    fn is_negation_of(&self, x: TermId, y: TermId) -> bool {
        matches!(self.node(x), Node::App(Op::Not, i) if i[0] == y)
            || matches!(self.node(y), Node::App(Op::Not, i) if i[0] == x)
    }
}
