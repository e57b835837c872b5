//! Models of C library functions and gcc builtins on integers, exact as gcc and glibc compute
//! them on x86 (each is checked against a gcc build by `tests/libc_models.rs`):
//!
//! - `abs`, `labs`, `llabs` (and `__builtin_` forms): `abs(INT_MIN)` is a signed overflow (a
//!   `no-overflow` violation; it wraps to `INT_MIN` under the other properties, as glibc does);
//! - `__builtin_popcount`, `clz`, `ctz`, `ffs`, `clrsb`, `parity` with their `l` and `ll`
//!   forms, `__builtin_bswap16/32/64`, `ffs`/`ffsl`/`ffsll`: `clz` and `ctz` of 0 are undefined
//!   (an UNKNOWN sink);
//! - `__builtin_{add,sub,mul}_overflow(a, b, &r)` and the typed `__builtin_[su]{add,sub,mul}[l|ll]
//!   _overflow`: the exact result of `a op b` stored in `r` modulo its width, and whether it did
//!   not fit; `__builtin_{add,sub,mul}_overflow_p(a, b, c)` the same without the store (for
//!   `c`'s type);
//! - `__builtin_unreachable()` reached is undefined behaviour; `__builtin_trap()` and
//!   `__builtin_abort()` end the execution, like `abort()`;
//! - the `<ctype.h>` functions in the "C" locale: `isdigit` and `isascii` as gcc folds them (0
//!   or 1, any `int`), the others as glibc's table returns them (its bit masks, e.g.
//!   `isalpha('a')` is 1024) for arguments in `[-128, 255]` (outside, glibc reads beyond its
//!   table: undefined behaviour), `toupper`/`tolower` for every `int` (as glibc: `-128 … -2` map
//!   to `128 … 254`, other values outside the letters to themselves), `toascii`;
//! - `memset`, `memcpy`, `memmove`, `memcmp`: byte by byte through general pointers, unrolled
//!   for a constant size (see `memory::copy`), a loop for any other (see `memory::loops`);
//! - `rand()`: a value in `[0, RAND_MAX]` that the program does not state (like the result of a
//!   function without a definition, a counterexample that depends on it is UNKNOWN unless
//!   `--undefined-calls nondet`); `srand` has no effect on the program's objects.

use super::builder::Lower;
use super::repr::{Lval, Place, RVal, Val};
use super::types::{CInt, IntKind};
use super::FrontendError;
use crate::bv::TermId;
use crate::cfa::{HavocKind, Property, VarKind};
use lang_c::ast::{CallExpression, Expression};
use lang_c::span::Node;

/// A bit-counting builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BitOp {
    Popcount,
    Clz,
    Ctz,
    Ffs,
    Clrsb,
    Parity,
}

/// An arithmetic operation of the overflow builtins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OvOp {
    Add,
    Sub,
    Mul,
}

/// The glibc class mask of a `<ctype.h>` classification function (x86, "C" locale).
fn ctype_mask(name: &str) -> Option<u32> {
    Some(match name {
        "isupper" => 0x100,
        "islower" => 0x200,
        "isalpha" => 0x400,
        "isxdigit" => 0x1000,
        "isspace" => 0x2000,
        "isprint" => 0x4000,
        "isgraph" => 0x8000,
        "isblank" => 0x1,
        "iscntrl" => 0x2,
        "ispunct" => 0x4,
        "isalnum" => 0x8,
        _ => return None,
    })
}

/// Whether the "C" locale puts byte `c` (0–127) in the class of `name`.
fn in_class(name: &str, c: u8) -> bool {
    let ch = c as char;
    match name {
        "isupper" => ch.is_ascii_uppercase(),
        "islower" => ch.is_ascii_lowercase(),
        "isalpha" => ch.is_ascii_alphabetic(),
        "isxdigit" => ch.is_ascii_hexdigit(),
        "isspace" => matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        "isprint" => (0x20..0x7f).contains(&c),
        "isgraph" => (0x21..0x7f).contains(&c),
        "isblank" => c == b' ' || c == b'\t',
        "iscntrl" => c < 0x20 || c == 0x7f,
        "ispunct" => ch.is_ascii_punctuation(),
        "isalnum" => ch.is_ascii_alphanumeric(),
        _ => false,
    }
}

/// The type of a typed overflow builtin's operands and result: `s`/`u` with `` / `l` / `ll`.
fn typed_overflow(rest: &str) -> Option<(OvOp, CInt)> {
    let (signed, rest) = match rest.as_bytes().first()? {
        b's' => (true, &rest[1..]),
        b'u' => (false, &rest[1..]),
        _ => return None,
    };
    let (op, size) = [("add", OvOp::Add), ("sub", OvOp::Sub), ("mul", OvOp::Mul)]
        .into_iter()
        .find_map(|(n, op)| rest.strip_prefix(n).map(|s| (op, s)))?;
    let kind = match size {
        "" => IntKind::Int,
        "l" => IntKind::Long,
        "ll" => IntKind::LongLong,
        _ => return None,
    };
    Some((op, CInt::new(kind, signed)))
}

/// The operand type of a bit-counting builtin's suffix (`` / `l` / `ll`), signed or not.
fn suffix_type(suffix: &str, signed: bool) -> Option<CInt> {
    let kind = match suffix {
        "" => IntKind::Int,
        "l" => IntKind::Long,
        "ll" => IntKind::LongLong,
        _ => return None,
    };
    Some(CInt::new(kind, signed))
}

impl<'a> Lower<'a> {
    /// Whether `name` has a model here (it then takes precedence over a missing definition).
    pub fn has_model(&self, name: &str) -> bool {
        !self.functions.contains_key(name) && self.model_kind(name).is_some()
    }

    fn model_kind(&self, name: &str) -> Option<()> {
        // C library functions, also as `__builtin_` forms; the rest only as builtins.
        let library = |b: &str| {
            matches!(
                b,
                "abs"
                    | "labs"
                    | "llabs"
                    | "rand"
                    | "srand"
                    | "toupper"
                    | "tolower"
                    | "toascii"
                    | "isdigit"
                    | "isascii"
                    | "ffs"
                    | "ffsl"
                    | "ffsll"
            ) || ctype_mask(b).is_some()
                || Lower::is_mem_function(b)
                || Lower::is_string_function(b)
        };
        let known = match name.strip_prefix("__builtin_") {
            Some(b) => {
                library(b)
                    || matches!(
                        b,
                        "unreachable" | "trap" | "abort" | "bswap16" | "bswap32" | "bswap64"
                    )
                    || self.bit_op(b).is_some()
                    || self.overflow_op(b).is_some()
            }
            None => library(name),
        };
        known.then_some(())
    }

    fn bit_op(&self, b: &str) -> Option<(BitOp, CInt)> {
        for (prefix, op, signed) in [
            ("popcount", BitOp::Popcount, false),
            ("clz", BitOp::Clz, false),
            ("ctz", BitOp::Ctz, false),
            ("clrsb", BitOp::Clrsb, true),
            ("parity", BitOp::Parity, false),
        ] {
            if let Some(s) = b.strip_prefix(prefix) {
                return suffix_type(s, signed).map(|t| (op, t));
            }
        }
        None
    }

    /// An overflow builtin: its operation, the result type when the name fixes it, and
    /// whether it is a `_p` form (no store).
    fn overflow_op(&self, b: &str) -> Option<(OvOp, Option<CInt>, bool)> {
        if let Some(rest) = b.strip_suffix("_overflow_p") {
            let op = match rest {
                "add" => OvOp::Add,
                "sub" => OvOp::Sub,
                "mul" => OvOp::Mul,
                _ => return None,
            };
            return Some((op, None, true));
        }
        let rest = b.strip_suffix("_overflow")?;
        match rest {
            "add" => Some((OvOp::Add, None, false)),
            "sub" => Some((OvOp::Sub, None, false)),
            "mul" => Some((OvOp::Mul, None, false)),
            _ => typed_overflow(rest).map(|(op, t)| (op, Some(t), false)),
        }
    }

    /// A call of a modelled function.
    pub fn call_model(
        &mut self,
        name: &str,
        c: &Node<CallExpression>,
    ) -> Result<Val, FrontendError> {
        let args = c.node.arguments.as_slice();
        let b = name.strip_prefix("__builtin_").unwrap_or(name);
        let arity = |n: usize, lw: &Lower| -> Result<(), FrontendError> {
            if args.len() == n {
                Ok(())
            } else {
                lw.error(c.span, format!("`{name}` takes {n} argument(s)"))
            }
        };
        let dm = self.dm();
        if let Some((op, ty)) = self.bit_op(b) {
            arity(1, self)?;
            let x = self.arg(&args[0], ty)?;
            return Ok(Val::Int(self.bit_count(op, x, ty.width(dm))));
        }
        if let Some((op, fixed, pred)) = self.overflow_op(b) {
            arity(3, self)?;
            return self.overflow_builtin(op, fixed, pred, args, c);
        }
        if Lower::is_mem_function(b) {
            return self.mem_function(b, args, c.span);
        }
        if Lower::is_string_function(b) {
            return self.string_function(b, args, c.span);
        }
        match b {
            "unreachable" => {
                arity(0, self)?;
                let t = self.cfa.tm.tru();
                self.ub_check(None, t, &format!("{name}() reached"));
                Ok(Val::Void)
            }
            "trap" | "abort" => {
                let exit = self.cfa.exit;
                self.jump(exit);
                Ok(Val::Void)
            }
            "rand" => {
                arity(0, self)?;
                let pos = self.pos.clone();
                let v = self.new_var(name, CInt::INT, VarKind::Nondet, Some(pos));
                let ty = CInt::INT.int_type(dm);
                self.havoc(
                    v,
                    HavocKind::UndefinedCall {
                        function: name.to_string(),
                        ty,
                    },
                );
                let t = self.var_term(v);
                let zero = self.cfa.tm.bv_const(0, 32);
                let ok = self.cfa.tm.sge(t, zero);
                self.assume(ok);
                Ok(Val::Int(RVal { t, ty: CInt::INT }))
            }
            "srand" => {
                arity(1, self)?;
                self.effect(&args[0])?;
                Ok(Val::Void)
            }
            _ => {
                if args.len() != 1 {
                    return self.error(c.span, format!("`{name}` takes 1 argument(s)"));
                }
                let a = &args[0];
                if let Some(v) = self.int_model(b, name, a)? {
                    return Ok(v);
                }
                match self.char_model(b, name, a)? {
                    Some(v) => Ok(v),
                    None => Err(FrontendError::Internal(format!("no model of `{name}`"))),
                }
            }
        }
    }

    /// The integer functions of one argument `a`: `abs` and its kin, byte swaps, `ffs`;
    /// `None` for another function.
    fn int_model(
        &mut self,
        b: &str,
        name: &str,
        a: &Node<Expression>,
    ) -> Result<Option<Val>, FrontendError> {
        let dm = self.dm();
        match b {
            "abs" | "labs" | "llabs" => {
                let kind = match b {
                    "abs" => IntKind::Int,
                    "labs" => IntKind::Long,
                    _ => IntKind::LongLong,
                };
                let ty = CInt::new(kind, true);
                let x = self.arg(a, ty)?;
                let w = ty.width(dm);
                let tm = &mut self.cfa.tm;
                let min = tm.bv_const(1u128 << (w - 1), w);
                let is_min = tm.eq(x, min);
                let zero = tm.bv_const(0, w);
                let neg = tm.slt(x, zero);
                let minus = tm.neg(x);
                let r = tm.ite(neg, minus, x);
                self.check(
                    Property::NoOverflow,
                    is_min,
                    &format!("signed overflow in {name}"),
                );
                Ok(Some(Val::Int(RVal { t: r, ty })))
            }
            "bswap16" | "bswap32" | "bswap64" => {
                let ty = match b {
                    "bswap16" => CInt::new(IntKind::Short, false),
                    "bswap32" => CInt::UINT,
                    _ => CInt::new(IntKind::LongLong, false),
                };
                let x = self.arg(a, ty)?;
                let w = ty.width(dm);
                let tm = &mut self.cfa.tm;
                let mut r = tm.extract(x, 7, 0);
                for k in 1..w / 8 {
                    let byte = tm.extract(x, 8 * k + 7, 8 * k);
                    r = tm.concat(r, byte);
                }
                Ok(Some(Val::Int(RVal { t: r, ty })))
            }
            "ffs" | "ffsl" | "ffsll" => {
                let ty = suffix_type(&b[3..], true).unwrap_or(CInt::INT);
                let x = self.arg(a, ty)?;
                Ok(Some(Val::Int(self.bit_count(BitOp::Ffs, x, ty.width(dm)))))
            }
            _ => Ok(None),
        }
    }

    /// The character functions of `<ctype.h>` (of one argument `a`); `None` for another
    /// function.
    fn char_model(
        &mut self,
        b: &str,
        name: &str,
        a: &Node<Expression>,
    ) -> Result<Option<Val>, FrontendError> {
        match b {
            "toupper" | "tolower" => {
                let x = self.arg(a, CInt::INT)?;
                let (lo, hi, delta) = if b == "toupper" {
                    (b'a', b'z', -32i128)
                } else {
                    (b'A', b'Z', 32)
                };
                let tm = &mut self.cfa.tm;
                let l = tm.bv_const(u128::from(lo), 32);
                let h = tm.bv_const(u128::from(hi), 32);
                let ge = tm.sge(x, l);
                let le = tm.sle(x, h);
                let inr = tm.and(ge, le);
                let d = tm.bv_const_signed(delta, 32);
                let moved = tm.add(x, d);
                // glibc's table maps the negative `char` values other than EOF to their
                // `unsigned char` values.
                let m128 = tm.bv_const_signed(-128, 32);
                let m2 = tm.bv_const_signed(-2, 32);
                let ge = tm.sge(x, m128);
                let le = tm.sle(x, m2);
                let negc = tm.and(ge, le);
                let k256 = tm.bv_const(256, 32);
                let up = tm.add(x, k256);
                let r = tm.ite(negc, up, x);
                let r = tm.ite(inr, moved, r);
                Ok(Some(Val::Int(RVal {
                    t: r,
                    ty: CInt::INT,
                })))
            }
            "toascii" | "isascii" => {
                let x = self.arg(a, CInt::INT)?;
                let tm = &mut self.cfa.tm;
                let m = tm.bv_const(0x7f, 32);
                let low = tm.and(x, m);
                let r = if b == "toascii" {
                    low
                } else {
                    let same = tm.eq(low, x);
                    tm.bool_to_bv(same)
                };
                let r = self.cfa.tm.resize(r, 32, false);
                Ok(Some(Val::Int(RVal {
                    t: r,
                    ty: CInt::INT,
                })))
            }
            "isdigit" => {
                let x = self.arg(a, CInt::INT)?;
                let tm = &mut self.cfa.tm;
                let zero = tm.bv_const(u128::from(b'0'), 32);
                let d = tm.sub(x, zero);
                let nine = tm.bv_const(9, 32);
                let le = tm.ule(d, nine);
                let r = tm.bool_to_bv(le);
                let r = tm.resize(r, 32, false);
                Ok(Some(Val::Int(RVal {
                    t: r,
                    ty: CInt::INT,
                })))
            }
            _ => match ctype_mask(b) {
                Some(mask) => {
                    let x = self.arg(a, CInt::INT)?;
                    self.ctype_class(b, mask, x, name).map(Some)
                }
                None => Ok(None),
            },
        }
    }

    /// An argument converted (as by a prototype) to `ty`.
    fn arg(&mut self, e: &Node<Expression>, ty: CInt) -> Result<TermId, FrontendError> {
        let v = self.rval(e)?;
        Ok(self.convert(v, ty))
    }

    /// A bit-counting builtin on `x` of width `w`; the result is an `int`.
    fn bit_count(&mut self, op: BitOp, x: TermId, w: u32) -> RVal {
        let tm = &mut self.cfa.tm;
        let bit = |tm: &mut crate::bv::TermManager, x: TermId, i: u32| {
            let b = tm.extract(x, i, i);
            let one = tm.bv_const(1, 1);
            tm.eq(b, one)
        };
        let c = |tm: &mut crate::bv::TermManager, v: u32| tm.bv_const(u128::from(v), 32);
        // The number of leading zeros of `y`, `w` for 0.
        let clz = |tm: &mut crate::bv::TermManager, y: TermId| {
            let mut r = c(tm, w);
            for i in 0..w {
                let bi = bit(tm, y, i);
                let n = c(tm, w - 1 - i);
                r = tm.ite(bi, n, r);
            }
            r
        };
        let zero = tm.bv_const(0, w);
        let is_zero = tm.eq(x, zero);
        let t = match op {
            BitOp::Popcount | BitOp::Parity => {
                let mut sum = c(tm, 0);
                for i in 0..w {
                    let b = tm.extract(x, i, i);
                    let b = tm.zext(b, 32);
                    sum = tm.add(sum, b);
                }
                if op == BitOp::Parity {
                    let one = c(tm, 1);
                    tm.and(sum, one)
                } else {
                    sum
                }
            }
            BitOp::Clz => clz(tm, x),
            BitOp::Ctz | BitOp::Ffs => {
                let mut r = c(tm, w);
                for i in (0..w).rev() {
                    let bi = bit(tm, x, i);
                    let n = c(tm, i);
                    r = tm.ite(bi, n, r);
                }
                if op == BitOp::Ffs {
                    let one = c(tm, 1);
                    let r1 = tm.add(r, one);
                    let z = c(tm, 0);
                    tm.ite(is_zero, z, r1)
                } else {
                    r
                }
            }
            BitOp::Clrsb => {
                let z = tm.bv_const(0, w);
                let neg = tm.slt(x, z);
                let inv = tm.not(x);
                let y = tm.ite(neg, inv, x);
                let l = clz(tm, y);
                let one = c(tm, 1);
                tm.sub(l, one)
            }
        };
        if matches!(op, BitOp::Clz | BitOp::Ctz) {
            let what = if op == BitOp::Clz { "clz" } else { "ctz" };
            self.ub_check(None, is_zero, &format!("__builtin_{what} of 0"));
        }
        RVal { t, ty: CInt::INT }
    }

    /// A `<ctype.h>` classification other than `isdigit`: glibc's mask for members of the class
    /// among `[0, 127]`, 0 for the rest of `[-128, 255]`, undefined outside.
    fn ctype_class(
        &mut self,
        b: &str,
        mask: u32,
        x: TermId,
        name: &str,
    ) -> Result<Val, FrontendError> {
        let tm = &mut self.cfa.tm;
        let lo = tm.bv_const_signed(-128, 32);
        let hi = tm.bv_const(255, 32);
        let below = tm.slt(x, lo);
        let above = tm.sgt(x, hi);
        let outside = tm.or(below, above);
        let mut member = tm.fals();
        for ch in 0u8..128 {
            if in_class(b, ch) {
                let k = tm.bv_const(u128::from(ch), 32);
                let is = tm.eq(x, k);
                member = tm.or(member, is);
            }
        }
        let m = tm.bv_const(u128::from(mask), 32);
        let z = tm.bv_const(0, 32);
        let r = tm.ite(member, m, z);
        self.ub_check(
            None,
            outside,
            &format!("{name} of a value outside [-128, 255]"),
        );
        Ok(Val::Int(RVal {
            t: r,
            ty: CInt::INT,
        }))
    }

    /// `__builtin_{add,sub,mul}_overflow[_p]` and the typed forms: the exact result, computed
    /// in 128 bits (enough for two operands of up to 64 bits, except the product of two
    /// unsigned 64-bit values, which is computed unsigned), compared with the range of the
    /// result type.
    fn overflow_builtin(
        &mut self,
        op: OvOp,
        fixed: Option<CInt>,
        pred: bool,
        args: &[Node<Expression>],
        c: &Node<CallExpression>,
    ) -> Result<Val, FrontendError> {
        let dm = self.dm();
        let a = self.builtin_operand(&args[0], fixed)?;
        let b = self.builtin_operand(&args[1], fixed)?;
        let (target, rty) = self.overflow_result(pred, &args[2])?;
        if rty.kind == IntKind::Bool {
            return self.error(c.span, "overflow builtin with a `_Bool` result");
        }
        let (aw, bw, rw) = (a.ty.width(dm), b.ty.width(dm), rty.width(dm));
        let both_u64 = !a.ty.signed && !b.ty.signed && aw == 64 && bw == 64 && op == OvOp::Mul;
        let tm = &mut self.cfa.tm;
        let wa = tm.resize(a.t, 128, a.ty.signed);
        let wb = tm.resize(b.t, 128, b.ty.signed);
        let exact = match op {
            OvOp::Add => tm.add(wa, wb),
            OvOp::Sub => tm.sub(wa, wb),
            OvOp::Mul => tm.mul(wa, wb),
        };
        let (lo, hi) = rty.range(dm);
        let lo_t = tm.bv_const_signed(lo, 128);
        let hi_t = tm.bv_const(hi as u128, 128);
        let fits = if both_u64 {
            // The product is below 2^128 and not negative: compare unsigned.
            tm.ule(exact, hi_t)
        } else {
            let ge = tm.sge(exact, lo_t);
            let le = tm.sle(exact, hi_t);
            tm.and(ge, le)
        };
        let overflow = tm.not(fits);
        let stored = tm.extract(exact, rw - 1, 0);
        let flag = tm.bool_to_bv(overflow);
        let flag = tm.resize(flag, 1, false);
        if let Some(lv) = target {
            self.store(&lv, RVal { t: stored, ty: rty });
        }
        Ok(Val::Int(RVal {
            t: flag,
            ty: CInt::BOOL,
        }))
    }

    /// An operand of an overflow builtin, converted to `fixed` when the builtin's name fixes
    /// its type, evaluated once.
    fn builtin_operand(
        &mut self,
        e: &Node<Expression>,
        fixed: Option<CInt>,
    ) -> Result<RVal, FrontendError> {
        let v = self.rval(e)?;
        let v = match fixed {
            Some(t) => RVal {
                t: self.convert(v, t),
                ty: t,
            },
            None => v,
        };
        Ok(self.materialize(v))
    }

    /// Where an overflow builtin stores its result and the result's type: nowhere for the
    /// `_p` predicates (the third argument only gives the type), else the object `&x` names.
    fn overflow_result(
        &mut self,
        pred: bool,
        e: &Node<Expression>,
    ) -> Result<(Option<Lval>, CInt), FrontendError> {
        if pred {
            let v = self.rval(e)?;
            return Ok((None, v.ty));
        }
        match self.expr(e)? {
            Val::Ptr(p) => match self.deref_place(&p, e.span)? {
                Place::Scalar(lv) => {
                    let ty = lv.ty();
                    Ok((Some(lv), ty))
                }
                _ => self.error(e.span, "result pointer to an array"),
            },
            _ => self.unsupported(
                e.span,
                "result of an overflow builtin not given as `&object`",
            ),
        }
    }
}
