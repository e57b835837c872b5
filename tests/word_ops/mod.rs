//! The bit-vector operators of the tests' own word-level simulators (`btor2_sim`, `vmt_sim`),
//! written for the tests only (no code shared with bitmc's `bv`): values of at most 128 bits
//! as `u128`, operators named as in BTOR2, with SMT-LIB's semantics (division by zero and
//! shifts by the width or more as SMT-LIB's `bvudiv`, `bvsdiv`, `bvshl`, ... define them).

#![allow(dead_code)]

/// The all-ones value of `w` bits.
pub fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// The two's-complement reading of the `w`-bit value `v`.
pub fn signed(v: u128, w: u32) -> i128 {
    if w < 128 && (v >> (w - 1)) & 1 == 1 {
        (v | !mask(w)) as i128
    } else {
        v as i128
    }
}

/// One operator on values `a` of widths `aw` with parameters `p`, of result width `w`.
pub fn apply(op: &str, a: &[u128], aw: &[u32], p: &[u32], w: u32) -> u128 {
    let n = aw[0];
    let m = mask(n);
    let b = |c: bool| u128::from(c);
    match op {
        "not" => !a[0] & m,
        "neg" => a[0].wrapping_neg() & m,
        "and" => a[0] & a[1],
        "or" => a[0] | a[1],
        "xor" => a[0] ^ a[1],
        "add" => a[0].wrapping_add(a[1]) & m,
        "sub" => a[0].wrapping_sub(a[1]) & m,
        "mul" => a[0].wrapping_mul(a[1]) & m,
        "udiv" => a[0].checked_div(a[1]).unwrap_or(m),
        "urem" => a[0].checked_rem(a[1]).unwrap_or(a[0]),
        "sdiv" | "srem" => {
            let (x, y) = (signed(a[0], n), signed(a[1], n));
            let (ux, uy) = (x.unsigned_abs() & m, y.unsigned_abs() & m);
            if op == "sdiv" {
                let q = ux.checked_div(uy).unwrap_or(m);
                if (x < 0) != (y < 0) && uy != 0 {
                    q.wrapping_neg() & m
                } else if uy == 0 && x < 0 {
                    1
                } else {
                    q & m
                }
            } else {
                let r = if uy == 0 { ux } else { ux % uy };
                if x < 0 {
                    r.wrapping_neg() & m
                } else {
                    r
                }
            }
        }
        "sll" => {
            if a[1] >= u128::from(n) {
                0
            } else {
                (a[0] << a[1]) & m
            }
        }
        "srl" => {
            if a[1] >= u128::from(n) {
                0
            } else {
                a[0] >> a[1]
            }
        }
        "sra" => {
            let s = signed(a[0], n);
            let k = a[1].min(127) as u32;
            ((s >> k.min(n - 1)) as u128) & m
        }
        "concat" => (a[0] << aw[1]) | a[1],
        "slice" => (a[0] >> p[1]) & mask(p[0] - p[1] + 1),
        "uext" => a[0],
        "sext" => (signed(a[0], n) as u128) & mask(w),
        "eq" => b(a[0] == a[1]),
        "neq" => b(a[0] != a[1]),
        "ult" => b(a[0] < a[1]),
        "ulte" => b(a[0] <= a[1]),
        "ugt" => b(a[0] > a[1]),
        "ugte" => b(a[0] >= a[1]),
        "slt" => b(signed(a[0], n) < signed(a[1], n)),
        "slte" => b(signed(a[0], n) <= signed(a[1], n)),
        "sgt" => b(signed(a[0], n) > signed(a[1], n)),
        "sgte" => b(signed(a[0], n) >= signed(a[1], n)),
        "ite" => {
            if a[0] & 1 == 1 {
                a[1]
            } else {
                a[2]
            }
        }
        _ => unreachable!("operator {op}"),
    }
}
