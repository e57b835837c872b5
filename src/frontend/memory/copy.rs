//! `memset`, `memcpy`, `memmove` and `memcmp` (and their `__builtin_` forms): byte accesses
//! through general pointers, one per byte of a size the front end knows (a constant of at most
//! [`MAX_BYTES`]; other sizes are loops, see `loops`). Every byte access is checked as `*p` is
//! (null, outside the object, dangling,
//! a misaligned or untyped byte), `memcpy` between overlapping bytes of one object is undefined,
//! and a copy reads every source byte before it writes the first (so `memmove` is exact). A
//! padding byte may be copied into padding (a structure copied whole); copied into a value it
//! is an UNKNOWN sink, and so is a padding byte `memcmp` compares. `memcmp` reads all `n`
//! bytes of both objects (as the C standard's "the first n characters of the object" and
//! ASan's `strict_memcmp` require) and returns what glibc returns for the first differing bytes
//! (see [`Lower::byte_order`]; the standard fixes only its sign).

use crate::bv::TermId;
use crate::frontend::builder::Lower;
use crate::frontend::expr::has_side_effects;
use crate::frontend::repr::{Place, RVal, Val};
use crate::frontend::types::{size_t, CInt, CType};
use crate::frontend::FrontendError;
use lang_c::ast::Expression;
use lang_c::span::{Node, Span};

/// The most bytes one call sets or copies.
pub const MAX_BYTES: u128 = 4096;

impl<'a> Lower<'a> {
    /// Whether `b` (a name without `__builtin_`) is a function of this module.
    pub fn is_mem_function(b: &str) -> bool {
        matches!(b, "memset" | "memcpy" | "memmove" | "memcmp")
    }

    /// A call of `memset`, `memcpy`, `memmove` or `memcmp` (`b`, without `__builtin_`) with
    /// `args`: the destination pointer is the value (a `void *`), for `memcmp` the comparison's
    /// `int`.
    pub fn mem_function(
        &mut self,
        b: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Val, FrontendError> {
        if args.len() != 3 {
            return self.error(span, format!("`{b}` takes 3 arguments"));
        }
        let (n, second, d) = self.mem_args(b, args)?;
        let Some(count) = self.cfa.tm.const_value(n).filter(|&k| k <= MAX_BYTES) else {
            return match (b, &second) {
                ("memcmp", Val::Ref(s, _)) => {
                    let literals = string_literals(&args[..2]);
                    self.compare_loop(d.t, s.t, n, literals, span)
                }
                _ => self.mem_loop(b, d, second, n, span),
            };
        };
        self.mem.learnt.bytes = true;
        let count = count as i128;
        if let ("memcmp", Val::Ref(s, _)) = (b, &second) {
            return self.compare_bytes(d.t, s.t, count, string_literals(&args[..2]), span);
        }
        match second {
            Val::Int(c) => {
                for i in 0..count {
                    self.store_byte(d.t, i, c.t, span)?;
                }
            }
            Val::Ref(s, _) => {
                if b == "memcpy" && count > 0 {
                    self.overlap_check(d.t, s.t, count);
                }
                let mut bytes = Vec::new();
                for i in 0..count {
                    bytes.push(self.load_byte(s.t, i, span)?);
                }
                for (i, (byte, padding)) in bytes.into_iter().enumerate() {
                    // A padding byte may be copied into padding, not into a value.
                    let q = self.ptr_at(d.t, i as i128);
                    let into = self.at_padding(q);
                    let into = self.cfa.tm.not(into);
                    let bad = self.cfa.tm.and(padding, into);
                    self.sink_if(
                        bad,
                        "copy of a padding byte into a value (its value is not modelled)",
                    );
                    self.store_byte(d.t, i as i128, byte, span)?;
                }
            }
            _ => {
                return Err(FrontendError::Internal(
                    "the second argument of a memory function".into(),
                ))
            }
        }
        Ok(Val::Ref(d, CType::Void))
    }

    /// The arguments of memory function `b`, evaluated right to left as gcc evaluates them:
    /// the size (kept in a temporary when a later argument has side effects), the byte of
    /// `memset` or the source pointer, and the destination pointer (kept in a temporary).
    fn mem_args(
        &mut self,
        b: &str,
        args: &[Node<Expression>],
    ) -> Result<(TermId, Val, RVal), FrontendError> {
        let n = self.rval(&args[2])?;
        let n = self.convert(n, size_t(self.dm()));
        let n = if has_side_effects(&args[1].node) || has_side_effects(&args[0].node) {
            self.materialize(RVal {
                t: n,
                ty: size_t(self.dm()),
            })
            .t
        } else {
            n
        };
        let second = self.expr(&args[1])?;
        let second = if b == "memset" {
            // Kept in a temporary: the bytes written may be what the value is computed from.
            let v = self.int_of(second, true, args[1].span)?;
            let v = RVal {
                t: self.convert(v, CInt::UCHAR),
                ty: CInt::UCHAR,
            };
            Val::Int(self.materialize(v))
        } else {
            Val::Ref(self.general_pointer(second, args[1].span)?, CType::Void)
        };
        let second = self.freeze_val(second, &args[0].node);
        let dest = self.expr(&args[0])?;
        let d = self.general_pointer(dest, args[0].span)?;
        let d = self.materialize(d);
        Ok((n, second, d))
    }

    /// `memcmp` of the `n` bytes after `a` and `b`: the difference of the first differing
    /// bytes (as `unsigned char`s converted to `int`), 0 when all are equal.
    fn compare_bytes(
        &mut self,
        a: TermId,
        b: TermId,
        n: i128,
        literals: bool,
        span: Span,
    ) -> Result<Val, FrontendError> {
        let mut pairs = Vec::new();
        let mut padding = Vec::new();
        for i in 0..n {
            let (x, px) = self.load_byte(a, i, span)?;
            let (y, py) = self.load_byte(b, i, span)?;
            pairs.push((x, y));
            padding.extend([px, py]);
        }
        let padding = self.cfa.tm.or_all(padding);
        self.sink_if(
            padding,
            "comparison of a padding byte by memcmp (its value is not modelled)",
        );
        let w = CInt::INT.width(self.dm());
        let mut r = self.cfa.tm.bv_const(0, w);
        for (x, y) in pairs.into_iter().rev() {
            let same = self.cfa.tm.eq(x, y);
            let diff = self.byte_order(x, y, literals);
            r = self.cfa.tm.ite(same, r, diff);
        }
        Ok(Val::Int(RVal {
            t: r,
            ty: CInt::INT,
        }))
    }

    /// What `memcmp` and `strcmp` return for the first differing bytes `x` and `y` (as
    /// `unsigned char`s), an `int`. The C standard fixes only its sign; the magnitude is the
    /// platform's C library's: glibc on i386 (ILP32, `gcc -m32`) returns -1 or 1, on x86-64
    /// (LP64) the difference `x - y`. gcc folds a call on two string literals to -1 or 1
    /// (`literals`).
    pub(super) fn byte_order(&mut self, x: TermId, y: TermId, literals: bool) -> TermId {
        let w = CInt::INT.width(self.dm());
        let tm = &mut self.cfa.tm;
        let (xi, yi) = (tm.resize(x, w, false), tm.resize(y, w, false));
        if self.opts.data_model == crate::cfa::DataModel::Lp64 && !literals {
            return tm.sub(xi, yi);
        }
        let less = tm.ult(xi, yi);
        let minus_one = tm.bv_const(u128::from(u32::MAX), w);
        let one = tm.bv_const(1, w);
        tm.ite(less, minus_one, one)
    }

    /// `v` kept from the side effects of `later` (evaluated after it).
    fn freeze_val(&mut self, v: Val, later: &Expression) -> Val {
        if !has_side_effects(later) {
            return v;
        }
        match v {
            Val::Int(r) => Val::Int(self.materialize(r)),
            Val::Ref(r, q) => Val::Ref(self.materialize(r), q),
            v => v,
        }
    }

    /// The checked place of byte `i` after `p`.
    fn byte_place(
        &mut self,
        p: TermId,
        i: i128,
        span: Span,
    ) -> Result<crate::frontend::repr::Lval, FrontendError> {
        let q = self.ptr_at(p, i);
        match self.ref_place(q, &CType::Int(CInt::UCHAR), span)? {
            Place::Scalar(lv) => Ok(lv),
            _ => Err(FrontendError::Internal("the place of a byte".into())),
        }
    }

    /// Byte `i` after `p` (checked), materialised, and the condition that it is padding.
    fn load_byte(
        &mut self,
        p: TermId,
        i: i128,
        span: Span,
    ) -> Result<(TermId, TermId), FrontendError> {
        let lv = self.byte_place(p, i, span)?;
        let crate::frontend::repr::Lval::Mem { ptr, ty } = lv else {
            return Err(FrontendError::Internal("the place of a byte".into()));
        };
        let (v, padding) = self.mem_read_parts(ptr, ty);
        let v = self.materialize(RVal { t: v, ty }).t;
        Ok((v, padding))
    }

    fn store_byte(
        &mut self,
        p: TermId,
        i: i128,
        byte: TermId,
        span: Span,
    ) -> Result<(), FrontendError> {
        let lv = self.byte_place(p, i, span)?;
        self.store(
            &lv,
            RVal {
                t: byte,
                ty: CInt::UCHAR,
            },
        );
        Ok(())
    }

    /// `memcpy` of `n` bytes from `s` to `d` in one object whose ranges overlap: undefined.
    fn overlap_check(&mut self, d: TermId, s: TermId, n: i128) {
        let w = crate::frontend::repr::ADDRESS.width(self.dm());
        let nc = self.cfa.tm.bv_const(n as u128, w);
        self.overlap_check_term(d, s, nc);
    }
}

/// Whether every argument is a string literal (a call gcc folds to a constant).
pub(super) fn string_literals(args: &[Node<Expression>]) -> bool {
    args.iter()
        .all(|a| matches!(a.node, Expression::StringLiteral(_)))
}
