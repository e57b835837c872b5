//! C integer operators as bit-vector terms, with the violation conditions of the properties.
//!
//! Each binary operator converts its operands (usual arithmetic conversions; for shifts, each
//! operand is promoted on its own and the result has the left operand's type), computes the
//! result in the common width, and returns the conditions under which
//! - the signed result is not representable (`no-overflow`), computed from sign bits or a
//!   double-width product — never from the formula printed in LLUMC (Kleine Büning, Balyo, Sinz,
//!   "Unbounded Software Model Checking with Incremental SAT-Solving"), which is wrong:
//!   - `a + b`: `sign(a) = sign(b) ∧ sign(r) ≠ sign(a)`;
//!   - `a - b`: `sign(a) ≠ sign(b) ∧ sign(r) ≠ sign(a)`;
//!   - `a * b`: `sext₂ᵥ(a)·sext₂ᵥ(b) ≠ sext₂ᵥ(r)` (w ≤ 64, so 2w ≤ 128 bits);
//!   - `a / b`, `a % b`: `a = MIN ∧ b = −1` (C11 makes `MIN % −1` undefined too);
//!   - `-a`: `a = MIN`;
//!   - `a << b` (signed, 0 ≤ b < w): `(r >>ₐ b) ≠ a`, i.e. `a·2ᵇ` is not representable; a shift
//!     amount outside `[0, w)` is not an overflow;
//! - the divisor is zero (`div-by-zero`) for `/` and `%`;
//! - the shift amount is negative or at least the width of the promoted left operand (no
//!   property reports it; the front end makes it an UNKNOWN sink).
//!
//! Results: `/` and `%` are `bvsdiv`/`bvsrem` (signed, truncating like C) or `bvudiv`/`bvurem`;
//! a signed overflow wraps. The values given to undefined operations (a zero divisor: the
//! SMT-LIB value; a shift amount of at least the width: 0 for `<<` and unsigned `>>`, all sign
//! bits for signed `>>`) only matter on paths the front end cuts off with a check.

use super::repr::RVal;
use super::types::{usual_arithmetic, CInt, IntKind};
use crate::bv::{value, TermId, TermManager};
use crate::cfa::DataModel;

/// Converts `t` of type `from` to type `to`.
pub fn convert(tm: &mut TermManager, t: TermId, from: CInt, to: CInt, dm: DataModel) -> TermId {
    if to.kind == IntKind::Bool {
        let nz = nonzero(tm, t);
        return tm.bool_to_bv(nz);
    }
    tm.resize(t, to.width(dm), from.signed)
}

/// `t != 0` as a `bool` term; `ite(c, 1, 0)` (a C truth value) gives back `c`.
fn nonzero(tm: &mut TermManager, t: TermId) -> TermId {
    if let crate::bv::Node::App(crate::bv::Op::Ite, [c, a, b]) = tm.node(t) {
        if tm.const_value(a) == Some(1) && tm.const_value(b) == Some(0) {
            return c;
        }
    }
    tm.is_nonzero(t)
}

/// `v != 0` as a `bool` term.
pub fn truth(tm: &mut TermManager, v: RVal) -> TermId {
    nonzero(tm, v.t)
}

/// A `bool` term as an `int` 0 or 1.
pub fn from_bool(tm: &mut TermManager, b: TermId) -> RVal {
    let one = tm.bv_const(1, 32);
    let zero = tm.bv_const(0, 32);
    RVal {
        t: tm.ite(b, one, zero),
        ty: CInt::INT,
    }
}

fn sign(tm: &mut TermManager, t: TermId) -> TermId {
    let w = tm.width(t);
    let bit = tm.extract(t, w - 1, w - 1);
    let one = tm.bv_const(1, 1);
    tm.eq(bit, one)
}

/// `sign(a) = sign(b) ∧ sign(a + b) ≠ sign(a)`.
pub fn add_overflow(tm: &mut TermManager, a: TermId, b: TermId) -> TermId {
    let r = tm.add(a, b);
    let (sa, sb, sr) = (sign(tm, a), sign(tm, b), sign(tm, r));
    let same = tm.eq(sa, sb);
    let flip = tm.xor(sr, sa);
    tm.and(same, flip)
}

/// `sign(a) ≠ sign(b) ∧ sign(a - b) ≠ sign(a)`.
pub fn sub_overflow(tm: &mut TermManager, a: TermId, b: TermId) -> TermId {
    let r = tm.sub(a, b);
    let (sa, sb, sr) = (sign(tm, a), sign(tm, b), sign(tm, r));
    let differ = tm.xor(sa, sb);
    let flip = tm.xor(sr, sa);
    tm.and(differ, flip)
}

/// The double-width product of the sign-extended operands differs from the sign-extended
/// low half.
pub fn mul_overflow(tm: &mut TermManager, a: TermId, b: TermId) -> TermId {
    let w = tm.width(a);
    let (xa, xb) = (tm.sext(a, 2 * w), tm.sext(b, 2 * w));
    let wide = tm.mul(xa, xb);
    let low = tm.mul(a, b);
    let xlow = tm.sext(low, 2 * w);
    tm.ne(wide, xlow)
}

/// `a = MIN ∧ b = −1`.
pub fn div_overflow(tm: &mut TermManager, a: TermId, b: TermId) -> TermId {
    let w = tm.width(a);
    let min = tm.bv_const(value::signed_min(w), w);
    let m1 = tm.bv_const(value::mask(w), w);
    let c1 = tm.eq(a, min);
    let c2 = tm.eq(b, m1);
    tm.and(c1, c2)
}

/// `a = MIN`.
pub fn neg_overflow(tm: &mut TermManager, a: TermId) -> TermId {
    let w = tm.width(a);
    let min = tm.bv_const(value::signed_min(w), w);
    tm.eq(a, min)
}

/// `0 ≤ b < w ∧ ((a << b) >>ₐ b) ≠ a` (with `b` already of `a`'s width).
pub fn shl_overflow(tm: &mut TermManager, a: TermId, b: TermId) -> TermId {
    let w = tm.width(a);
    let wc = tm.bv_const(u128::from(w), w);
    let in_range = tm.ult(b, wc);
    let r = tm.shl(a, b);
    let back = tm.ashr(r, b);
    let lost = tm.ne(back, a);
    tm.and(in_range, lost)
}

/// Binary operators on integers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
}

impl BinOp {
    /// The C spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
        }
    }
}

/// The result of an operator and its violation conditions (`None`: cannot happen).
pub struct Arith {
    pub value: RVal,
    pub overflow: Option<TermId>,
    pub div_by_zero: Option<TermId>,
    /// A shift amount that is negative or at least the width of the promoted left operand.
    pub shift_out_of_range: Option<TermId>,
}

/// `a op b` with C semantics.
pub fn binary(tm: &mut TermManager, op: BinOp, a: RVal, b: RVal, dm: DataModel) -> Arith {
    let ty = usual_arithmetic(a.ty, b.ty, dm);
    let x = convert(tm, a.t, a.ty, ty, dm);
    let y = convert(tm, b.t, b.ty, ty, dm);
    let s = ty.signed;
    let mut overflow = None;
    let mut div_by_zero = None;
    let t = match op {
        BinOp::Add => {
            overflow = s.then(|| add_overflow(tm, x, y));
            tm.add(x, y)
        }
        BinOp::Sub => {
            overflow = s.then(|| sub_overflow(tm, x, y));
            tm.sub(x, y)
        }
        BinOp::Mul => {
            overflow = s.then(|| mul_overflow(tm, x, y));
            tm.mul(x, y)
        }
        BinOp::Div | BinOp::Rem => {
            overflow = s.then(|| div_overflow(tm, x, y));
            let w = tm.width(y);
            let z = tm.bv_const(0, w);
            div_by_zero = Some(tm.eq(y, z));
            match (op == BinOp::Div, s) {
                (true, true) => tm.sdiv(x, y),
                (true, false) => tm.udiv(x, y),
                (false, true) => tm.srem(x, y),
                (false, false) => tm.urem(x, y),
            }
        }
        BinOp::And => tm.and(x, y),
        BinOp::Or => tm.or(x, y),
        BinOp::Xor => tm.xor(x, y),
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
            let c = compare(tm, op, x, y, s);
            return Arith {
                value: from_bool(tm, c),
                overflow: None,
                div_by_zero: None,
                shift_out_of_range: None,
            };
        }
        BinOp::Shl | BinOp::Shr => return shift(tm, op, a, b, dm),
    };
    Arith {
        value: RVal { t, ty },
        overflow,
        div_by_zero,
        shift_out_of_range: None,
    }
}

/// A comparison of two operands of the same type, as a `bool` term.
fn compare(tm: &mut TermManager, op: BinOp, x: TermId, y: TermId, s: bool) -> TermId {
    match (op, s) {
        (BinOp::Lt, true) => tm.slt(x, y),
        (BinOp::Lt, false) => tm.ult(x, y),
        (BinOp::Gt, true) => tm.sgt(x, y),
        (BinOp::Gt, false) => tm.ugt(x, y),
        (BinOp::Le, true) => tm.sle(x, y),
        (BinOp::Le, false) => tm.ule(x, y),
        (BinOp::Ge, true) => tm.sge(x, y),
        (BinOp::Ge, false) => tm.uge(x, y),
        (BinOp::Eq, _) => tm.eq(x, y),
        _ => tm.ne(x, y),
    }
}

/// `a op b` for a comparison operator, as a `bool` term (usual arithmetic conversions).
pub fn comparison(tm: &mut TermManager, op: BinOp, a: RVal, b: RVal, dm: DataModel) -> TermId {
    let ty = usual_arithmetic(a.ty, b.ty, dm);
    let x = convert(tm, a.t, a.ty, ty, dm);
    let y = convert(tm, b.t, b.ty, ty, dm);
    compare(tm, op, x, y, ty.signed)
}

impl BinOp {
    /// Whether the operator is a comparison.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }
}

fn shift(tm: &mut TermManager, op: BinOp, a: RVal, b: RVal, dm: DataModel) -> Arith {
    let ty = a.ty.promote();
    let bty = b.ty.promote();
    let x = convert(tm, a.t, a.ty, ty, dm);
    let y = convert(tm, b.t, b.ty, bty, dm);
    let (w, bw) = (ty.width(dm), bty.width(dm));
    // Negative amounts are huge as unsigned numbers (the promoted amount has at least 32 bits,
    // the width at most 128), so one unsigned comparison finds both kinds of undefined shift.
    let wb = tm.bv_const(u128::from(w), bw);
    let out_of_range = tm.uge(y, wb);
    // The amount in the left operand's width; "too large" when it does not fit.
    let (amount, too_big) = if bw > w {
        let wc = tm.bv_const(u128::from(w), bw);
        let big = tm.uge(y, wc);
        (tm.extract(y, w - 1, 0), Some(big))
    } else {
        (tm.zext(y, w), None)
    };
    let shifted = match (op, ty.signed) {
        (BinOp::Shl, _) => tm.shl(x, amount),
        (_, true) => tm.ashr(x, amount),
        _ => tm.lshr(x, amount),
    };
    let t = match too_big {
        Some(big) => {
            let fill = if op == BinOp::Shr && ty.signed {
                let wm1 = tm.bv_const(u128::from(w - 1), w);
                tm.ashr(x, wm1)
            } else {
                tm.bv_const(0, w)
            };
            tm.ite(big, fill, shifted)
        }
        None => shifted,
    };
    let overflow = if op == BinOp::Shl && ty.signed {
        let o = shl_overflow(tm, x, amount);
        Some(match too_big {
            Some(big) => {
                let nb = tm.not(big);
                tm.and(nb, o)
            }
            None => o,
        })
    } else {
        None
    };
    Arith {
        value: RVal { t, ty },
        overflow,
        div_by_zero: None,
        shift_out_of_range: Some(out_of_range),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::{Evaluator, Sort};

    /// Every pair of 8-bit operands: the conditions agree with mathematical integers.
    #[test]
    fn overflow_conditions_are_exact_on_8_bits() {
        let mut tm = TermManager::new();
        let a = tm.var("a", Sort::Bv(8));
        let b = tm.var("b", Sort::Bv(8));
        let conds = [
            add_overflow(&mut tm, a, b),
            sub_overflow(&mut tm, a, b),
            mul_overflow(&mut tm, a, b),
            div_overflow(&mut tm, a, b),
            neg_overflow(&mut tm, a),
            shl_overflow(&mut tm, a, b),
        ];
        let (av, bv) = (tm.as_var(a).unwrap(), tm.as_var(b).unwrap());
        let fits = |x: i128| (-128..=127).contains(&x);
        for x in 0u128..256 {
            for y in 0u128..256 {
                let mut ev = Evaluator::new(&tm);
                ev.set(av, x);
                ev.set(bv, y);
                let (sx, sy) = (value::to_signed(x, 8), value::to_signed(y, 8));
                let expect = [
                    !fits(sx + sy),
                    !fits(sx - sy),
                    !fits(sx * sy),
                    sy != 0 && !fits(sx / sy),
                    !fits(-sx),
                    (0..8).contains(&y) && !fits(sx * (1i128 << y)),
                ];
                for (i, c) in conds.iter().enumerate() {
                    assert_eq!(ev.eval_bool(*c), expect[i], "condition {i} on {sx}, {sy}");
                }
            }
        }
    }

    #[test]
    fn llumc_printed_formula_would_flag_a_valid_addition() {
        // -5 + 3 does not overflow; the printed formula's second disjunct says it does.
        let mut tm = TermManager::new();
        let a = tm.bv_const_signed(-5, 8);
        let b = tm.bv_const_signed(3, 8);
        let c = add_overflow(&mut tm, a, b);
        assert!(tm.is_false(c));
    }

    #[test]
    fn wide_shift_amounts() {
        let mut tm = TermManager::new();
        let dm = DataModel::Ilp32;
        let one = RVal {
            t: tm.bv_const(1, 32),
            ty: CInt::INT,
        };
        let big = RVal {
            t: tm.bv_const(1 << 32, 64),
            ty: CInt::new(IntKind::LongLong, true),
        };
        let r = binary(&mut tm, BinOp::Shl, one, big, dm);
        assert_eq!(tm.const_value(r.value.t), Some(0));
        assert_eq!(r.value.ty, CInt::INT);
    }
}
