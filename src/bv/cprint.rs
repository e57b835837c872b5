//! Printing terms as side-effect-free C expressions that mean exactly what the terms mean
//! ([`super::value::apply`]), so that invariants over program variables can be shown to users
//! as C.
//!
//! The scheme:
//! - A `bool` sub-term is an `int` expression with value 0 or 1 (`==`, `<`, `!`, `&&`, `||`,
//!   `?:`; `xor` is `!=`).
//! - A bit-vector sub-term of width `w` is an expression of an unsigned type (`unsigned int`,
//!   `unsigned long long` or `unsigned __int128`) whose low `w` bits are the term's bits.
//!   Masking is lazy: variable reads (`(unsigned int)x`), `+`, `-`, `*`, `~`, `<<`, negation
//!   and sign-extended results may carry garbage above bit `w` (the type then has at least `w`
//!   bits, and those operators' low bits depend only on their operands' low bits), and the mask
//!   `& (2^w - 1)` is applied only where a consumer reads the whole value (comparisons,
//!   division, right shifts, shift amounts, the low part of a concatenation, the root). An
//!   exact expression may be of a type of fewer than `w` bits when its value fits (constants,
//!   zero-extensions); operators that need `w` bits cast it first.
//! - Signed operators read an operand as a signed integer of type `int`, `long long` or
//!   `__int128` (the smallest with at least `w` bits): for widths 8, 16, 32, 64 and 128 by a
//!   cast (`(int)x`, `(signed char)x`), which reduces modulo 2^w; for other widths by
//!   `(int)(x ^ 2^(w-1)) - 2^(w-1)`, which stays in range (`-(int)x` for one bit). Signed
//!   division, remainder and right shift use C's `/`, `%` and `>>` on those values (C's
//!   truncating division is SMT-LIB's; right shift of a negative value is arithmetic), and the
//!   result is converted back to the unsigned type. This relies on the two
//!   implementation-defined behaviours that gcc, clang and MSVC define alike: conversion to a
//!   signed type reduces modulo 2^N, and `>>` of a negative value shifts in sign bits.
//! - No undefined behaviour: no signed arithmetic can overflow (guarded `INT_MIN / -1`, and
//!   sign-extended values of fewer bits than their type), shifts are by less than the type's
//!   width (guarded with `?:` where the amount is not a constant), divisors are guarded against
//!   zero, and the SMT-LIB results for those cases are written explicitly.
//!
//! Output is built as ropes in an arena and flattened with an explicit stack, so deep terms need
//! neither recursion nor quadratic copying. A sub-term shared in the DAG is printed in full at
//! each use (and guards repeat their operands), so the output is meant for small terms such as
//! invariants.

use super::value::{mask, to_signed};
use super::{Node, Op, TermId, TermManager, VarId};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// `t` (a `bool` term) as a C expression over the variables, each written by `name(var)` and
/// read as the unsigned value of its width (the caller's variables are C integers whose bits are
/// the variable's bits; e.g. `(unsigned int)x` for an `int x`).
///
/// `name(var)` may be any C integer expression of any integer type whose low `w` bits are the
/// variable's bits (higher bits are ignored; a `bool` variable is its lowest bit); names that
/// are not plain identifiers are parenthesised. The result is an `int` expression whose value
/// is 0 or 1. For a bit-vector term of width `w`, the result is an expression of type
/// `unsigned int`, `unsigned long long` or `unsigned __int128` (at least `w` bits) whose value
/// is the term's.
/// The number of nodes of `t` written out as a tree (which [`c_expr`] does), or `cap` if that is
/// more: a DAG of shared sub-terms can be exponentially larger as a tree.
pub fn tree_size(tm: &TermManager, t: TermId, cap: usize) -> usize {
    let mut memo: std::collections::HashMap<TermId, usize> = std::collections::HashMap::new();
    let mut stack = vec![(t, false)];
    while let Some((u, expanded)) = stack.pop() {
        if memo.contains_key(&u) {
            continue;
        }
        match tm.node(u) {
            crate::bv::Node::App(op, args) => {
                let args = &args[..crate::bv::arity(op)];
                if expanded {
                    let n = args
                        .iter()
                        .fold(1usize, |n, a| n.saturating_add(memo[a]))
                        .min(cap);
                    memo.insert(u, n);
                } else {
                    stack.push((u, true));
                    stack.extend(args.iter().map(|&a| (a, false)));
                }
            }
            _ => {
                memo.insert(u, 1);
            }
        }
    }
    memo[&t]
}

pub fn c_expr(tm: &TermManager, t: TermId, name: &dyn Fn(VarId) -> String) -> String {
    let mut p = Printer {
        tm,
        name,
        ropes: Vec::new(),
        memo: HashMap::new(),
    };
    // Every term below `t`, in increasing id order: arguments come before their users.
    let mut seen: HashSet<TermId> = HashSet::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if seen.insert(u) {
            stack.extend_from_slice(tm.args(u));
        }
    }
    let mut order: Vec<TermId> = seen.into_iter().collect();
    order.sort();
    for u in order {
        let e = p.term(u);
        p.memo.insert(u, e);
    }
    let mut root = p.memo[&t];
    if !tm.sort(t).is_bool() {
        root = p.clean(root, tm.width(t));
    }
    p.flatten(root.r)
}

// C operator precedence levels (higher binds tighter).
const PRIMARY: u8 = 16;
const UNARY: u8 = 15;
const MUL: u8 = 13;
const ADD: u8 = 12;
const SHIFT: u8 = 11;
const REL: u8 = 10;
const EQ: u8 = 9;
const BAND: u8 = 8;
const BXOR: u8 = 7;
const BOR: u8 = 6;
const LAND: u8 = 5;
const LOR: u8 = 4;
const COND: u8 = 3;

/// The unsigned C types a bit-vector expression may have.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Ty {
    U32,
    U64,
    U128,
}

impl Ty {
    fn bits(self) -> u32 {
        match self {
            Ty::U32 => 32,
            Ty::U64 => 64,
            Ty::U128 => 128,
        }
    }
    /// The smallest type of at least `w` bits.
    fn of(w: u32) -> Ty {
        if w <= 32 {
            Ty::U32
        } else if w <= 64 {
            Ty::U64
        } else {
            Ty::U128
        }
    }
    fn cast(self) -> &'static str {
        match self {
            Ty::U32 => "(unsigned int)",
            Ty::U64 => "(unsigned long long)",
            Ty::U128 => "(unsigned __int128)",
        }
    }
    /// The signed type of the same size.
    fn signed_cast(self) -> &'static str {
        match self {
            Ty::U32 => "(int)",
            Ty::U64 => "(long long)",
            Ty::U128 => "(__int128)",
        }
    }
}

/// A piece of a rope: literal text or another rope.
enum Part {
    S(Cow<'static, str>),
    R(usize),
}

impl From<&'static str> for Part {
    fn from(s: &'static str) -> Part {
        Part::S(Cow::Borrowed(s))
    }
}

impl From<String> for Part {
    fn from(s: String) -> Part {
        Part::S(Cow::Owned(s))
    }
}

impl From<usize> for Part {
    fn from(r: usize) -> Part {
        Part::R(r)
    }
}

/// A new rope of the concatenation of the arguments (strings and rope ids).
macro_rules! cat {
    ($p:expr; $($x:expr),* $(,)?) => {
        $p.rope(vec![$(Part::from($x)),*])
    };
}

/// A printed sub-term.
#[derive(Clone, Copy, Debug)]
struct E {
    /// The rope of its text.
    r: usize,
    /// The precedence of its outermost operator.
    prec: u8,
    /// Its C type (bit-vectors only).
    ty: Ty,
    /// Whether its value is exactly the term's (no garbage above the width); always for `bool`.
    clean: bool,
    /// When the text is a cast `(T)u` to its type: the operand `u` (parenthesised as a cast's
    /// operand), an integer whose low bits are the value's, so that other casts to at most as
    /// many bits may apply to `u` directly.
    under: Option<usize>,
    /// The value of a constant.
    konst: Option<u128>,
    /// Whether the text starts with a unary minus.
    minus: bool,
}

struct Printer<'a> {
    tm: &'a TermManager,
    name: &'a dyn Fn(VarId) -> String,
    ropes: Vec<Vec<Part>>,
    memo: HashMap<TermId, E>,
}

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `w` is the width of a C type with a signed counterpart we cast to.
fn native_signed(w: u32) -> Option<&'static str> {
    match w {
        8 => Some("(signed char)"),
        16 => Some("(short)"),
        32 => Some("(int)"),
        64 => Some("(long long)"),
        128 => Some("(__int128)"),
        _ => None,
    }
}

impl Printer<'_> {
    fn rope(&mut self, parts: Vec<Part>) -> usize {
        self.ropes.push(parts);
        self.ropes.len() - 1
    }

    fn flatten(&self, r: usize) -> String {
        let mut out = String::new();
        let mut stack: Vec<(usize, usize)> = vec![(r, 0)];
        while let Some((r, i)) = stack.pop() {
            let Some(part) = self.ropes[r].get(i) else {
                continue;
            };
            stack.push((r, i + 1));
            match part {
                Part::S(s) => out.push_str(s),
                Part::R(q) => stack.push((*q, 0)),
            }
        }
        out
    }

    /// A bit-vector expression of width `w`; `clean` is implied when the type has at most `w`
    /// bits.
    fn bv(&self, r: usize, prec: u8, ty: Ty, clean: bool, w: u32) -> E {
        E {
            r,
            prec,
            ty,
            clean: clean || ty.bits() <= w,
            under: None,
            konst: None,
            minus: false,
        }
    }

    /// A `bool` expression.
    fn boolean(&self, r: usize, prec: u8) -> E {
        E {
            r,
            prec,
            ty: Ty::U32,
            clean: true,
            under: None,
            konst: None,
            minus: false,
        }
    }

    /// The text of `e`, parenthesised when its precedence is below `min`.
    fn wrap(&mut self, e: E, min: u8) -> usize {
        if e.prec >= min {
            e.r
        } else {
            cat!(self; "(", e.r, ")")
        }
    }

    /// `a op b` for a binary operator of precedence `p`, parenthesising operands for C's
    /// grammar and for readability (bitwise and shift operands, `&&` inside `||`, comparisons
    /// inside comparisons).
    fn binop(&mut self, a: E, op: &'static str, p: u8, b: E) -> usize {
        let (lmin, rmin) = match p {
            MUL | ADD => (p, p + 1),
            SHIFT => (UNARY, UNARY),
            REL | EQ => (SHIFT, SHIFT),
            BAND | BXOR | BOR => (if a.prec == p { p } else { UNARY }, UNARY),
            LAND => (LAND, LAND),
            _ => (LOR, LOR), // LOR: `&&` operands are parenthesised below
        };
        let wrap_land = |e: E| {
            if p == LOR && e.prec == LAND {
                PRIMARY
            } else {
                0
            }
        };
        let l = self.wrap(a, lmin.max(wrap_land(a)));
        let r = self.wrap(b, rmin.max(wrap_land(b)));
        cat!(self; l, op, r)
    }

    /// `c ? t : e`.
    fn cond_text(&mut self, c: E, t: E, e: E) -> usize {
        let c = self.wrap(c, LAND + 1);
        let t = self.wrap(t, COND + 1);
        let e = self.wrap(e, COND);
        cat!(self; c, " ? ", t, " : ", e)
    }

    /// `c ? t : e` on bit-vectors of width `w`.
    fn cond(&mut self, c: E, t: E, e: E, w: u32) -> E {
        let r = self.cond_text(c, t, e);
        self.bv(r, COND, t.ty.max(e.ty), t.clean && e.clean, w)
    }

    /// The unsigned constant `v` of width `w`.
    fn ulit(&mut self, v: u128, w: u32) -> E {
        let (r, prec, ty) = if w <= 32 {
            (cat!(self; format!("{v}u")), PRIMARY, Ty::U32)
        } else if w <= 64 || v >> 64 == 0 {
            (cat!(self; format!("{v}ull")), PRIMARY, Ty::U64)
        } else {
            let (hi, lo) = (v >> 64, v as u64);
            let s = if lo == 0 {
                format!("((unsigned __int128){hi}ull << 64)")
            } else {
                format!("((unsigned __int128){hi}ull << 64 | {lo}ull)")
            };
            (cat!(self; s), PRIMARY, Ty::U128)
        };
        E {
            konst: Some(v),
            ..self.bv(r, prec, ty, true, w)
        }
    }

    /// A plain integer for a shift amount or a guard bound.
    fn int(&mut self, v: u128) -> E {
        let r = cat!(self; v.to_string());
        self.boolean(r, PRIMARY)
    }

    /// `e` converted to `ty`.
    fn cast(&mut self, ty: Ty, e: E, w: u32) -> E {
        let inner = match e.under {
            Some(u) if ty < e.ty => u,
            _ => self.wrap(e, UNARY),
        };
        let r = cat!(self; ty.cast(), inner);
        E {
            under: Some(inner),
            ..self.bv(r, UNARY, ty, e.clean, w)
        }
    }

    /// `e` in a type of at least `w` bits.
    fn fit(&mut self, e: E, w: u32) -> E {
        if e.ty.bits() >= w {
            e
        } else if let Some(v) = e.konst {
            let lit = self.ulit(v, w);
            if lit.ty.bits() >= w {
                lit
            } else {
                self.cast(Ty::of(w), lit, w)
            }
        } else {
            self.cast(Ty::of(w), e, w)
        }
    }

    /// `e` with its value exactly the term's.
    fn clean(&mut self, e: E, w: u32) -> E {
        if e.clean {
            return e;
        }
        let m = self.ulit(mask(w), w);
        let r = self.binop(e, " & ", BAND, m);
        self.bv(r, BAND, e.ty, true, w)
    }

    /// `e` compared with 0 (`==` or `!=`).
    fn zero_test(&mut self, e: E, op: &'static str) -> E {
        let z = self.int(0);
        let r = self.binop(e, op, EQ, z);
        self.boolean(r, EQ)
    }

    /// The signed reading of the sub-term `t` (printed as `e`, width `w`), of type `int`,
    /// `long long` or `__int128` (the smallest with `w` bits); a constant of more than 64 bits
    /// may be a `long long` literal.
    fn sval(&mut self, t: TermId, e: E, w: u32) -> E {
        let ty = Ty::of(w);
        if let Some(c) = self.tm.const_value(t) {
            let v = to_signed(c, w);
            let (s, prec) = if w <= 32 {
                if v == i32::MIN as i128 {
                    ("(-2147483647 - 1)".to_string(), PRIMARY)
                } else {
                    (format!("{v}"), if v < 0 { UNARY } else { PRIMARY })
                }
            } else if w <= 64 {
                if v == i64::MIN as i128 {
                    ("(-9223372036854775807ll - 1)".to_string(), PRIMARY)
                } else {
                    (format!("{v}ll"), if v < 0 { UNARY } else { PRIMARY })
                }
            } else if v > i64::MIN as i128 && v <= i64::MAX as i128 {
                // A `long long`: converted where it meets the `__int128` operand.
                (format!("{v}ll"), if v < 0 { UNARY } else { PRIMARY })
            } else {
                // -(__int128)|v|, or (__int128)v: |v| fits (minus one for the minimum).
                let min = v == i128::MIN;
                let mag = if min {
                    i128::MAX as u128
                } else {
                    v.unsigned_abs()
                };
                let lit = self.ulit(mag, 128);
                let lit = self.wrap(lit, UNARY);
                let (r, prec) = match (v < 0, min) {
                    (false, _) => (cat!(self; "(__int128)", lit), UNARY),
                    (true, false) => (cat!(self; "-(__int128)", lit), UNARY),
                    (true, true) => (cat!(self; "(-(__int128)", lit, " - 1)"), PRIMARY),
                };
                return self.boolean(r, prec);
            };
            let r = cat!(self; s);
            return self.boolean(r, prec);
        }
        if let Some(cast) = native_signed(w) {
            let inner = match e.under {
                Some(u) if w <= e.ty.bits() => u,
                _ => self.wrap(e, UNARY),
            };
            let r = cat!(self; cast, inner);
            return self.boolean(r, UNARY);
        }
        let c = self.clean(e, w);
        if w == 1 {
            let inner = self.wrap(c, UNARY);
            let r = cat!(self; "-(int)", inner);
            return self.boolean(r, UNARY);
        }
        // (S)(x ^ 2^(w-1)) - 2^(w-1): in range since w is below the signed type's width.
        let h = self.ulit(1u128 << (w - 1), w);
        let flipped = self.binop(c, " ^ ", BXOR, h);
        let hs = match ty {
            Ty::U32 => format!("{}", 1u64 << (w - 1)),
            Ty::U64 => format!("{}ll", 1u64 << (w - 1)),
            Ty::U128 => format!("((__int128)1 << {})", w - 1),
        };
        let r = cat!(self; ty.signed_cast(), "(", flipped, ") - ", hs);
        self.boolean(r, ADD)
    }

    /// The (possibly parenthesised) name of a variable.
    fn var_name(&mut self, v: VarId) -> usize {
        let n = (self.name)(v);
        if is_identifier(&n) {
            cat!(self; n)
        } else {
            cat!(self; format!("({n})"))
        }
    }

    /// `(T)(s)` for a signed expression `s` whose value, reduced modulo 2^w, is the result.
    fn unsign(&mut self, s: E, w: u32) -> E {
        let ty = Ty::of(w);
        let inner = self.wrap(s, UNARY);
        let r = cat!(self; ty.cast(), inner);
        E {
            under: Some(inner),
            ..self.bv(r, UNARY, ty, false, w)
        }
    }

    fn term(&mut self, u: TermId) -> E {
        let tm = self.tm;
        let sort = tm.sort(u);
        match tm.node(u) {
            Node::Const(v) => {
                if sort.is_bool() {
                    let r = cat!(self; if v != 0 { "1" } else { "0" });
                    self.boolean(r, PRIMARY)
                } else {
                    self.ulit(v, sort.width())
                }
            }
            Node::Var(v) => {
                let n = self.var_name(v);
                if sort.is_bool() {
                    let r = cat!(self; "(", n, " & 1)");
                    self.boolean(r, PRIMARY)
                } else {
                    let w = sort.width();
                    let ty = Ty::of(w);
                    let r = cat!(self; ty.cast(), n);
                    E {
                        under: Some(n),
                        ..self.bv(r, UNARY, ty, false, w)
                    }
                }
            }
            Node::App(op, args) => self.app(u, op, args),
        }
    }

    /// A comparison `op` (`Eq`, `Ult`, `Ule`, `Slt`, `Sle`) of `x` and `y`, negated when
    /// `negate`.
    fn compare(&mut self, op: Op, x: TermId, y: TermId, negate: bool) -> E {
        let (a, b) = (self.memo[&x], self.memo[&y]);
        let w = self.tm.width(x);
        let (text, prec) = match (op, negate) {
            (Op::Eq, false) => (" == ", EQ),
            (Op::Eq, true) => (" != ", EQ),
            (Op::Ult | Op::Slt, false) => (" < ", REL),
            (Op::Ult | Op::Slt, true) => (" >= ", REL),
            (Op::Ule | Op::Sle, false) => (" <= ", REL),
            (Op::Ule | Op::Sle, true) => (" > ", REL),
            _ => unreachable!("not a comparison: {op:?}"),
        };
        let (a, b) = if self.tm.sort(x).is_bool() {
            (a, b)
        } else if matches!(op, Op::Slt | Op::Sle) {
            (self.sval(x, a, w), self.sval(y, b, w))
        } else {
            (self.clean(a, w), self.clean(b, w))
        };
        let r = self.binop(a, text, prec, b);
        self.boolean(r, prec)
    }

    fn app(&mut self, u: TermId, op: Op, args: [TermId; 3]) -> E {
        let tm = self.tm;
        let a = self.memo[&args[0]];
        let b = self.memo[&args[1]];
        let w = tm.width(args[0]);
        if tm.sort(args[0]).is_bool() && op != Op::Ite {
            return self.connective(op, args, a, b);
        }
        match op {
            Op::Eq | Op::Ult | Op::Ule | Op::Slt | Op::Sle => {
                self.compare(op, args[0], args[1], false)
            }
            Op::Ite => self.ite_app(u, args, a, b),
            Op::Not | Op::Neg => self.negation(op, args, a),
            Op::And | Op::Or | Op::Xor => self.bitwise(op, args, a, b),
            Op::Add | Op::Sub | Op::Mul => self.arith(op, args, a, b),
            Op::Udiv | Op::Urem => self.unsigned_division(op, args, a, b),
            Op::Sdiv | Op::Srem => self.signed_division(op, args, a, b),
            Op::Shl | Op::Lshr => self.logical_shift(op, args, a, b),
            Op::Ashr => self.arithmetic_shift(args, a, b),
            Op::Concat => self.concat(u, args, a, b),
            Op::Extract { hi, lo } => self.extract(u, args, a, hi, lo),
            Op::Zext(_) => {
                // The same expression; only its width grows (it may now be of a narrower type).
                let c = self.clean(a, w);
                E { konst: None, ..c }
            }
            Op::Sext(to) => {
                if to == w {
                    return a;
                }
                let sa = self.sval(args[0], a, w);
                self.unsign(sa, to)
            }
        }
    }

    /// The Boolean connectives.
    fn connective(&mut self, op: Op, args: [TermId; 3], a: E, b: E) -> E {
        let tm = self.tm;
        match op {
            Op::Not => match tm.node(args[0]) {
                Node::App(cmp @ (Op::Eq | Op::Ult | Op::Ule | Op::Slt | Op::Sle), [x, y, _]) => {
                    self.compare(cmp, x, y, true)
                }
                _ => {
                    let inner = self.wrap(a, UNARY);
                    let r = cat!(self; "!", inner);
                    self.boolean(r, UNARY)
                }
            },
            Op::And => {
                let r = self.binop(a, " && ", LAND, b);
                self.boolean(r, LAND)
            }
            Op::Or => {
                let r = self.binop(a, " || ", LOR, b);
                self.boolean(r, LOR)
            }
            Op::Xor => self.compare(Op::Eq, args[0], args[1], true),
            Op::Eq => self.compare(Op::Eq, args[0], args[1], false),
            _ => unreachable!("{op:?} on bool"),
        }
    }

    /// `ite`: a conditional expression.
    fn ite_app(&mut self, u: TermId, args: [TermId; 3], a: E, b: E) -> E {
        let tm = self.tm;
        let rw = self.tm.width(u);
        let c = a;
        let (t, e) = (b, self.memo[&args[2]]);
        if tm.sort(u).is_bool() {
            let r = self.cond_text(c, t, e);
            self.boolean(r, COND)
        } else {
            self.cond(c, t, e, rw)
        }
    }

    /// `~a` and `-a`.
    fn negation(&mut self, op: Op, args: [TermId; 3], a: E) -> E {
        let w = self.tm.width(args[0]);
        let a = self.fit(a, w);
        let inner = self.wrap(a, if a.minus { PRIMARY } else { UNARY });
        let r = cat!(self; if op == Op::Not { "~" } else { "-" }, inner);
        E {
            minus: op == Op::Neg,
            ..self.bv(r, UNARY, a.ty, false, w)
        }
    }

    /// `&`, `|`, `^`.
    fn bitwise(&mut self, op: Op, args: [TermId; 3], a: E, b: E) -> E {
        let w = self.tm.width(args[0]);
        let (text, p) = match op {
            Op::And => (" & ", BAND),
            Op::Or => (" | ", BOR),
            _ => (" ^ ", BXOR),
        };
        let clean = if op == Op::And {
            a.clean || b.clean
        } else {
            a.clean && b.clean
        };
        let r = self.binop(a, text, p, b);
        self.bv(r, p, a.ty.max(b.ty), clean, w)
    }

    /// `+`, `-`, `*` (wrapping in the word's width).
    fn arith(&mut self, op: Op, args: [TermId; 3], a: E, b: E) -> E {
        let w = self.tm.width(args[0]);
        let (text, p) = match op {
            Op::Add => (" + ", ADD),
            Op::Sub => (" - ", ADD),
            _ => (" * ", MUL),
        };
        let a = if a.ty.max(b.ty).bits() < w {
            self.fit(a, w)
        } else {
            a
        };
        let r = self.binop(a, text, p, b);
        self.bv(r, p, a.ty.max(b.ty), false, w)
    }

    /// `/` and `%` of unsigned words, with SMT-LIB's results for a zero divisor.
    fn unsigned_division(&mut self, op: Op, args: [TermId; 3], a: E, b: E) -> E {
        let tm = self.tm;
        let w = self.tm.width(args[0]);
        let (text, on_zero) = if op == Op::Udiv {
            (" / ", self.ulit(mask(w), w))
        } else {
            (" % ", a)
        };
        let (ca, cb) = (self.clean(a, w), self.clean(b, w));
        let q = self.binop(ca, text, MUL, cb);
        let q = self.bv(q, MUL, ca.ty.max(cb.ty), true, w);
        match tm.const_value(args[1]) {
            Some(0) => on_zero,
            Some(_) => q,
            None => {
                let z = self.zero_test(cb, " == ");
                self.cond(z, on_zero, q, w)
            }
        }
    }

    /// `/` and `%` of signed words, with SMT-LIB's results for a zero divisor and C's `MIN / -1` avoided.
    fn signed_division(&mut self, op: Op, args: [TermId; 3], a: E, b: E) -> E {
        let tm = self.tm;
        let w = self.tm.width(args[0]);
        let native = Ty::of(w).bits() == w;
        let sa = self.sval(args[0], a, w);
        let sb = self.sval(args[1], b, w);
        let text = if op == Op::Sdiv { " / " } else { " % " };
        let q = self.binop(sa, text, MUL, sb);
        let q = self.boolean(q, MUL);
        let q = self.unsign(q, w);
        // x sdiv 0 = (x < 0 ? 1 : ~0), x srem 0 = x.
        let on_zero = if op == Op::Sdiv {
            if let Some(c) = tm.const_value(args[0]) {
                let neg = c >> (w - 1) & 1 == 1;
                self.ulit(if neg { 1 } else { mask(w) }, w)
            } else {
                let z = self.int(0);
                let neg = self.binop(sa, " < ", REL, z);
                let neg = self.boolean(neg, REL);
                let one = self.ulit(1, w);
                let ones = self.ulit(mask(w), w);
                self.cond(neg, one, ones, w)
            }
        } else {
            a
        };
        // x sdiv -1 = -x, x srem -1 = 0 (and MIN / -1 overflows in C).
        let on_minus_one = |p: &mut Self| {
            if op == Op::Sdiv {
                let fa = p.fit(a, w);
                let inner = p.wrap(fa, if fa.minus { PRIMARY } else { UNARY });
                let r = cat!(p; "-", inner);
                E {
                    minus: true,
                    ..p.bv(r, UNARY, fa.ty, false, w)
                }
            } else {
                p.ulit(0, w)
            }
        };
        match tm.const_value(args[1]) {
            Some(0) => on_zero,
            Some(c) if c == mask(w) => on_minus_one(self),
            Some(_) => q,
            None => {
                let cb = self.clean(b, w);
                let rest = if native {
                    let m = self.ulit(mask(w), w);
                    let is_m = self.binop(cb, " == ", EQ, m);
                    let is_m = self.boolean(is_m, EQ);
                    let om = on_minus_one(self);
                    self.cond(is_m, om, q, w)
                } else {
                    q
                };
                let z = self.zero_test(cb, " == ");
                self.cond(z, on_zero, rest, w)
            }
        }
    }

    /// `<<` and logical `>>`: zero once the amount reaches the width.
    fn logical_shift(&mut self, op: Op, args: [TermId; 3], a: E, b: E) -> E {
        let tm = self.tm;
        let w = self.tm.width(args[0]);
        let fa = self.fit(a, w);
        let (text, fa) = if op == Op::Shl {
            (" << ", fa)
        } else {
            (" >> ", self.clean(fa, w))
        };
        match tm.const_value(args[1]) {
            Some(s) if s >= w as u128 => self.ulit(0, w),
            Some(0) => a,
            Some(s) => {
                let s = self.int(s);
                let r = self.binop(fa, text, SHIFT, s);
                self.bv(r, SHIFT, fa.ty, op == Op::Lshr, w)
            }
            None => {
                let cb = self.clean(b, w);
                let bound = self.int(w as u128);
                let small = self.binop(cb, " < ", REL, bound);
                let small = self.boolean(small, REL);
                let r = self.binop(fa, text, SHIFT, cb);
                let shifted = self.bv(r, SHIFT, fa.ty, op == Op::Lshr, w);
                let zero = self.ulit(0, w);
                self.cond(small, shifted, zero, w)
            }
        }
    }

    /// Arithmetic `>>`: an amount past the width gives the sign bits.
    fn arithmetic_shift(&mut self, args: [TermId; 3], a: E, b: E) -> E {
        let tm = self.tm;
        let w = self.tm.width(args[0]);
        if w == 1 {
            return a;
        }
        let amount = match tm.const_value(args[1]) {
            Some(0) => return a,
            Some(s) => self.int(s.min(w as u128 - 1)),
            None => {
                // min(b, w - 1): shifting by w - 1 already gives all sign bits.
                let cb = self.clean(b, w);
                let top = self.int(w as u128 - 1);
                let small = self.binop(cb, " < ", REL, top);
                let small = self.boolean(small, REL);
                let r = self.cond_text(small, cb, top);
                self.boolean(r, COND)
            }
        };
        let mut sa = self.sval(args[0], a, w);
        if w > 64 && tm.const_value(args[0]).is_some() {
            // A constant may be a narrower `long long`; shift it as an `__int128`.
            let inner = self.wrap(sa, UNARY);
            let r = cat!(self; "(__int128)", inner);
            sa = self.boolean(r, UNARY);
        }
        let r = self.binop(sa, " >> ", SHIFT, amount);
        let s = self.boolean(r, SHIFT);
        self.unsign(s, w)
    }

    /// Concatenation: the high word shifted above the low one.
    fn concat(&mut self, u: TermId, args: [TermId; 3], a: E, b: E) -> E {
        let tm = self.tm;
        let rw = self.tm.width(u);
        let lw = tm.width(args[1]);
        let lo = self.clean(b, lw);
        if tm.const_value(args[0]) == Some(0) {
            return E { konst: None, ..lo };
        }
        let hi = self.fit(a, rw);
        let amount = self.int(lw as u128);
        let shifted = self.binop(hi, " << ", SHIFT, amount);
        let shifted = self.bv(shifted, SHIFT, hi.ty, hi.clean, rw);
        if tm.const_value(args[1]) == Some(0) {
            return shifted;
        }
        let r = self.binop(shifted, " | ", BOR, lo);
        self.bv(r, BOR, hi.ty.max(lo.ty), hi.clean, rw)
    }

    /// Bits `hi..lo` of a word.
    fn extract(&mut self, u: TermId, args: [TermId; 3], a: E, hi: u32, lo: u32) -> E {
        let w = self.tm.width(args[0]);
        let rw = self.tm.width(u);
        let e = if lo == 0 {
            self.bv(a.r, a.prec, a.ty, a.clean && hi == w - 1, rw)
        } else {
            let fa = if a.ty.bits() <= lo { self.fit(a, w) } else { a };
            let amount = self.int(lo as u128);
            let r = self.binop(fa, " >> ", SHIFT, amount);
            self.bv(r, SHIFT, fa.ty, fa.clean && hi == w - 1, rw)
        };
        // Same text as `a` (lo = 0): still the cast of `a`'s operand.
        let e = E {
            under: if lo == 0 { a.under } else { None },
            minus: lo == 0 && a.minus,
            ..e
        };
        if Ty::of(rw) < e.ty {
            self.cast(Ty::of(rw), e, rw)
        } else {
            e
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::Sort;

    /// `x + x` nested 40 times is 41 terms as a DAG and 2^41 − 1 nodes as a tree.
    #[test]
    fn tree_size_counts_shared_terms_once_per_use_and_stops_at_the_cap() {
        let mut tm = TermManager::new();
        let mut t = tm.var("x", Sort::Bv(8));
        assert_eq!(tree_size(&tm, t, 100), 1);
        let one = tm.bv_const(1, 8);
        let u = tm.add(t, one);
        assert_eq!(tree_size(&tm, u, 100), 3);
        for _ in 0..40 {
            t = tm.add(t, t);
        }
        assert_eq!(tree_size(&tm, t, 1_000_000), 1_000_000);
    }
}
