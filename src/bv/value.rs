//! Concrete semantics of every operator on values of at most 128 bits.
//!
//! A value is a `u128` whose bits above the sort's width are zero; `bool` is 0 or 1. These
//! functions are the single definition of the operators: constant folding in the term manager
//! and concrete evaluation both call [`apply`]. Division by zero and over-wide shifts follow
//! SMT-LIB: `x udiv 0 = ~0`, `x urem 0 = x`, `x sdiv 0 = (x < 0 ? 1 : ~0)`, `x srem 0 = x`,
//! shifts by at least the width give 0 (or all sign bits for `ashr`).

use super::{Op, Sort};

/// All-ones mask of `width` bits (`width` in 1..=128).
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The value `v` truncated to `width` bits.
pub fn truncate(v: u128, width: u32) -> u128 {
    v & mask(width)
}

/// The two's-complement signed reading of the `width`-bit value `v`.
pub fn to_signed(v: u128, width: u32) -> i128 {
    if width >= 128 {
        v as i128
    } else if (v >> (width - 1)) & 1 == 1 {
        (v | !mask(width)) as i128
    } else {
        v as i128
    }
}

/// The `width`-bit two's-complement encoding of `v` (wrapping).
pub fn from_signed(v: i128, width: u32) -> u128 {
    truncate(v as u128, width)
}

/// The most negative signed value of `width` bits, as a bit pattern.
pub fn signed_min(width: u32) -> u128 {
    1u128 << (width - 1)
}

/// The largest signed value of `width` bits, as a bit pattern.
pub fn signed_max(width: u32) -> u128 {
    mask(width) >> 1
}

fn sign_bit(v: u128, w: u32) -> bool {
    (v >> (w - 1)) & 1 == 1
}

/// Apply `op` to argument values. `arg_sorts` are the sorts of the arguments and `result` the
/// sort of the result; both come from the term manager, which has checked them.
pub fn apply(op: Op, args: &[u128], arg_sorts: &[Sort], result: Sort) -> u128 {
    let w = arg_sorts.first().map(|s| s.width()).unwrap_or(1);
    let m = mask(w);
    let r = match op {
        Op::Not => !args[0] & m,
        Op::And => args[0] & args[1],
        Op::Or => args[0] | args[1],
        Op::Xor => args[0] ^ args[1],
        Op::Neg => args[0].wrapping_neg() & m,
        Op::Add => args[0].wrapping_add(args[1]) & m,
        Op::Sub => args[0].wrapping_sub(args[1]) & m,
        Op::Mul => args[0].wrapping_mul(args[1]) & m,
        Op::Udiv => args[0].checked_div(args[1]).unwrap_or(m),
        Op::Urem => {
            if args[1] == 0 {
                args[0]
            } else {
                args[0] % args[1]
            }
        }
        Op::Sdiv => {
            let (a, b) = (args[0], args[1]);
            if b == 0 {
                if sign_bit(a, w) {
                    1
                } else {
                    m
                }
            } else {
                // Divide magnitudes (as unsigned, so MIN is representable) and fix the sign.
                let (na, nb) = (sign_bit(a, w), sign_bit(b, w));
                let ua = if na { a.wrapping_neg() & m } else { a };
                let ub = if nb { b.wrapping_neg() & m } else { b };
                let q = ua / ub;
                if na != nb {
                    q.wrapping_neg() & m
                } else {
                    q & m
                }
            }
        }
        Op::Srem => {
            let (a, b) = (args[0], args[1]);
            if b == 0 {
                a
            } else {
                let (na, nb) = (sign_bit(a, w), sign_bit(b, w));
                let ua = if na { a.wrapping_neg() & m } else { a };
                let ub = if nb { b.wrapping_neg() & m } else { b };
                let r = ua % ub;
                if na {
                    r.wrapping_neg() & m
                } else {
                    r
                }
            }
        }
        Op::Shl => {
            if args[1] >= w as u128 {
                0
            } else {
                (args[0] << args[1]) & m
            }
        }
        Op::Lshr => {
            if args[1] >= w as u128 {
                0
            } else {
                args[0] >> args[1]
            }
        }
        Op::Ashr => {
            let neg = sign_bit(args[0], w);
            if args[1] >= w as u128 {
                if neg {
                    m
                } else {
                    0
                }
            } else {
                let s = args[1] as u32;
                let shifted = args[0] >> s;
                if neg && s > 0 {
                    (shifted | (m & !(m >> s))) & m
                } else {
                    shifted
                }
            }
        }
        Op::Concat => {
            let lw = arg_sorts[1].width();
            if lw >= 128 {
                args[1]
            } else {
                (args[0] << lw) | args[1]
            }
        }
        Op::Extract { hi, lo } => (args[0] >> lo) & mask(hi - lo + 1),
        Op::Zext(_) => args[0],
        Op::Sext(to) => from_signed(to_signed(args[0], w), to),
        Op::Eq => (args[0] == args[1]) as u128,
        Op::Ult => (args[0] < args[1]) as u128,
        Op::Ule => (args[0] <= args[1]) as u128,
        Op::Slt => (to_signed(args[0], w) < to_signed(args[1], w)) as u128,
        Op::Sle => (to_signed(args[0], w) <= to_signed(args[1], w)) as u128,
        Op::Ite => {
            if args[0] != 0 {
                args[1]
            } else {
                args[2]
            }
        }
    };
    truncate(r, result.width())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(w: u32) -> Sort {
        Sort::Bv(w)
    }

    fn bin(op: Op, a: u128, b: u128, w: u32) -> u128 {
        apply(op, &[a, b], &[bv(w), bv(w)], bv(w))
    }

    #[test]
    fn signed_division_follows_c_truncation() {
        // -7 / 2 = -3, -7 % 2 = -1 in C (truncation toward zero).
        let m7 = from_signed(-7, 8);
        assert_eq!(to_signed(bin(Op::Sdiv, m7, 2, 8), 8), -3);
        assert_eq!(to_signed(bin(Op::Srem, m7, 2, 8), 8), -1);
        assert_eq!(to_signed(bin(Op::Srem, 7, from_signed(-2, 8), 8), 8), 1);
        // MIN / -1 wraps to MIN, MIN % -1 = 0.
        assert_eq!(bin(Op::Sdiv, 0x80, 0xff, 8), 0x80);
        assert_eq!(bin(Op::Srem, 0x80, 0xff, 8), 0);
        // Full width.
        let min = signed_min(128);
        assert_eq!(bin(Op::Sdiv, min, u128::MAX, 128), min);
        assert_eq!(
            to_signed(bin(Op::Sdiv, from_signed(-9, 128), 4, 128), 128),
            -2
        );
    }

    #[test]
    fn division_by_zero_is_smtlib() {
        assert_eq!(bin(Op::Udiv, 5, 0, 8), 0xff);
        assert_eq!(bin(Op::Urem, 5, 0, 8), 5);
        assert_eq!(bin(Op::Sdiv, 5, 0, 8), 0xff);
        assert_eq!(bin(Op::Sdiv, 0xfb, 0, 8), 1);
        assert_eq!(bin(Op::Srem, 0xfb, 0, 8), 0xfb);
    }

    #[test]
    fn shifts_by_width_or_more() {
        assert_eq!(bin(Op::Shl, 1, 8, 8), 0);
        assert_eq!(bin(Op::Lshr, 0x80, 9, 8), 0);
        assert_eq!(bin(Op::Ashr, 0x80, 200, 8), 0xff);
        assert_eq!(bin(Op::Ashr, 0x80, 3, 8), 0xf0);
        assert_eq!(bin(Op::Ashr, 0x40, 3, 8), 0x08);
        assert_eq!(bin(Op::Shl, 1, 127, 128), 1u128 << 127);
        assert_eq!(bin(Op::Ashr, 1u128 << 127, 127, 128), u128::MAX);
    }

    #[test]
    fn extension_and_extraction() {
        assert_eq!(apply(Op::Sext(16), &[0x80], &[bv(8)], bv(16)), 0xff80);
        assert_eq!(apply(Op::Zext(16), &[0x80], &[bv(8)], bv(16)), 0x0080);
        assert_eq!(
            apply(Op::Extract { hi: 7, lo: 4 }, &[0xab], &[bv(8)], bv(4)),
            0xa
        );
        assert_eq!(apply(Op::Concat, &[0xa, 0xb], &[bv(4), bv(4)], bv(8)), 0xab);
        assert_eq!(apply(Op::Sext(128), &[0x1], &[bv(1)], bv(128)), u128::MAX);
    }
}
