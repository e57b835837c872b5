//! Narrowing rewrites: comparisons, extractions and extensions of zero- and sign-extended
//! terms are done at the width of the extended terms, so that e.g. a bounds check the front
//! end builds at 128 bits is bit-blasted at the width of the index.
//!
//! Notation: `x` has `n` bits, `zext x` and `sext x` have `m > n` bits (an extension to the
//! same width is `x` itself), `c` is an `m`-bit constant.
//!
//! - **Extensions compose**: `zext(zext x) = zext x`, `sext(sext x) = sext x`, and
//!   `sext(zext x) = zext x` (the top bit of `zext x` is 0).
//! - **Extraction**: bits `lo..=hi` of `ext x` with `lo < n ≤ hi` are `ext` (same kind) of bits
//!   `lo..=n-1` of `x`, to `hi - lo + 1` bits; with `n ≤ lo` they are 0 for `zext` and copies
//!   of the sign bit of `x` for `sext`. (`hi < n` is handled with the other extractions.)
//! - **Two extensions of one kind**: both are first brought to the larger inner width `k < m`.
//!   `sext` is injective and monotone for both the signed and the unsigned order (it keeps the
//!   signed value; as an unsigned map it sends `[0, 2^(n-1))` to itself and
//!   `[2^(n-1), 2^n)` in order to the top of the range), so `=`, `<u`, `≤u`, `<s`, `≤s` of
//!   `sext x, sext y` are those of `x, y`. `zext` is injective and monotone for `<u`, and its
//!   values are below `2^k ≤ 2^(m-1)`, i.e. non-negative, so `<s`/`≤s` of `zext x, zext y`
//!   are `<u`/`≤u` of `x, y`.
//! - **An extension and a constant**: when `c` is in the range of the extension (`c < 2^n`
//!   for `zext`; `c = sext(trunc_n c)` for `sext`), `c` is narrowed to `trunc_n c` and the
//!   comparison made at `n` bits by the rules above. Otherwise `=` is false and the order
//!   comparisons are constant, except `<u`/`≤u` against `sext x`: the unsigned values of
//!   `sext x` are below `2^(n-1)` when `x ≥s 0` and at least `2^m - 2^(n-1)` when `x <s 0`,
//!   and a `c` out of range lies strictly between, so `sext x <u c` is `¬(x <s 0)` and
//!   `c <u sext x` is `x <s 0` (likewise for `≤u`, as `c` equals no value of `sext x`).
//!
//! Extensions of different kinds are left alone.

use super::{value, Node, Op, TermId, TermManager};

/// The kind of an extension.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ext {
    Zero,
    Sign,
}

impl Ext {
    fn op(self, to: u32) -> Op {
        match self {
            Ext::Zero => Op::Zext(to),
            Ext::Sign => Op::Sext(to),
        }
    }
}

impl TermManager {
    /// `(kind, x)` if `t` is an extension of `x`.
    fn extension(&self, t: TermId) -> Option<(Ext, TermId)> {
        match self.node(t) {
            Node::App(Op::Zext(_), a) => Some((Ext::Zero, a[0])),
            Node::App(Op::Sext(_), a) => Some((Ext::Sign, a[0])),
            _ => None,
        }
    }

    fn extend(&mut self, kind: Ext, x: TermId, to: u32) -> TermId {
        self.app(kind.op(to), &[x])
    }

    /// `ext` (an extension `Zext(to)` or `Sext(to)`) of `x`, composed with `x`'s own extension.
    pub(super) fn narrow_extension(&mut self, ext: Op, x: TermId) -> Option<TermId> {
        let (inner_kind, inner) = self.extension(x)?;
        match (ext, inner_kind) {
            (Op::Zext(to), Ext::Zero) | (Op::Sext(to), _) => {
                Some(self.extend(inner_kind, inner, to))
            }
            _ => None,
        }
    }

    /// Bits `lo..=hi` of `x` if `x` is an extension of a term of at most `hi` bits.
    pub(super) fn narrow_extract(&mut self, x: TermId, hi: u32, lo: u32) -> Option<TermId> {
        let (kind, inner) = self.extension(x)?;
        let n = self.width(inner);
        let w = hi - lo + 1;
        if hi < n {
            return None;
        }
        if lo < n {
            let bits = self.app(Op::Extract { hi: n - 1, lo }, &[inner]);
            return Some(self.extend(kind, bits, w));
        }
        Some(match kind {
            Ext::Zero => self.bv_const(0, w),
            Ext::Sign => {
                let sign = self.app(
                    Op::Extract {
                        hi: n - 1,
                        lo: n - 1,
                    },
                    &[inner],
                );
                self.extend(Ext::Sign, sign, w)
            }
        })
    }

    /// `op` (one of `=`, `<u`, `≤u`, `<s`, `≤s`) of `a` and `b`, narrowed when one is an
    /// extension and the other an extension of the same kind or a constant.
    pub(super) fn narrow_comparison(&mut self, op: Op, a: TermId, b: TermId) -> Option<TermId> {
        match (self.extension(a), self.extension(b)) {
            (Some((ka, x)), Some((kb, y))) if ka == kb => {
                let k = self.width(x).max(self.width(y));
                let x = self.extend(ka, x, k);
                let y = self.extend(kb, y, k);
                Some(self.app(narrowed_op(op, ka), &[x, y]))
            }
            (Some((kind, x)), None) => {
                let c = self.const_value(b)?;
                let m = self.width(b);
                Some(self.compare_with_constant(op, kind, x, c, m, false))
            }
            (None, Some((kind, y))) => {
                let c = self.const_value(a)?;
                let m = self.width(a);
                Some(self.compare_with_constant(op, kind, y, c, m, true))
            }
            _ => None,
        }
    }

    /// `op(ext x, c)`, or `op(c, ext x)` when `flipped`, where `ext x` and `c` have `m` bits.
    fn compare_with_constant(
        &mut self,
        op: Op,
        kind: Ext,
        x: TermId,
        c: u128,
        m: u32,
        flipped: bool,
    ) -> TermId {
        let n = self.width(x);
        let narrow = value::truncate(c, n);
        let in_range = match kind {
            Ext::Zero => narrow == c,
            Ext::Sign => value::from_signed(value::to_signed(narrow, n), m) == c,
        };
        if in_range {
            let cn = self.bv_const(narrow, n);
            let args = if flipped { [cn, x] } else { [x, cn] };
            return self.app(narrowed_op(op, kind), &args);
        }
        let ext_below_c = match op {
            Op::Eq => return self.fals(),
            // A negative `c` is below the range of either extension, a non-negative one above.
            Op::Slt | Op::Sle => value::to_signed(c, m) >= 0,
            // `zext x < 2^n ≤ c`.
            _ if kind == Ext::Zero => true,
            // `sext x <u c` iff `x ≥s 0`; `c <u sext x` iff `x <s 0`.
            _ => {
                let zero = self.bv_const(0, n);
                let negative = self.app(Op::Slt, &[x, zero]);
                return if flipped {
                    negative
                } else {
                    self.app(Op::Not, &[negative])
                };
            }
        };
        self.bool_const(ext_below_c != flipped)
    }
}

/// The comparison of the inner terms that gives `op` of two extensions of kind `kind` (or of an
/// extension and a constant in its range).
fn narrowed_op(op: Op, kind: Ext) -> Op {
    match (op, kind) {
        (Op::Slt, Ext::Zero) => Op::Ult,
        (Op::Sle, Ext::Zero) => Op::Ule,
        _ => op,
    }
}
