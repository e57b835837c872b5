//! The string functions `strlen`, `strcmp`, `strncmp`, `strcpy` and `strchr` (and their
//! `__builtin_` forms): loops in the CFA over the bytes after general pointers, one byte (of
//! each string) per iteration, each access checked as `*p` is (null, outside the object,
//! dangling, a write to a string literal), so that a string whose null character is not inside
//! its object ends in the UNKNOWN sink of an access outside it, and a padding byte read is an
//! UNKNOWN sink.
//!
//! - `strcmp` and `strncmp` return 0 for equal strings (within `n` bytes) and otherwise what
//!   `memcmp` returns for the first differing bytes (glibc's result, see [`Lower::byte_order`]).
//! - `strcpy` copies up to and including the null character and returns its destination; the
//!   two strings overlapping is undefined (an UNKNOWN sink), checked before each byte is written
//!   so that no byte is read after it was overwritten.
//! - `strchr` returns a pointer to the first byte equal to `(char) c` (the null character
//!   included), or null.

use crate::bv::TermId;
use crate::cfa::{Loc, PVar, VarKind};
use crate::frontend::builder::Lower;
use crate::frontend::repr::{Lval, Place, RVal, Val, ADDRESS};
use crate::frontend::types::{size_t, CInt, CType};
use crate::frontend::FrontendError;
use lang_c::ast::Expression;
use lang_c::span::{Node, Span};

/// What an argument of a string function is.
#[derive(Clone, Copy, PartialEq)]
enum Arg {
    /// A string (a general pointer).
    Str,
    /// A `size_t`.
    Size,
    /// An `int`.
    Int,
}

/// The arguments of string function `b`, or `None` when `b` is not one.
fn signature(b: &str) -> Option<&'static [Arg]> {
    Some(match b {
        "strlen" => &[Arg::Str],
        "strcmp" | "strcpy" => &[Arg::Str, Arg::Str],
        "strncmp" => &[Arg::Str, Arg::Str, Arg::Size],
        "strchr" => &[Arg::Str, Arg::Int],
        _ => return None,
    })
}

impl<'a> Lower<'a> {
    /// Whether `b` (a name without `__builtin_`) is a function of this module.
    pub fn is_string_function(b: &str) -> bool {
        signature(b).is_some()
    }

    /// A call of string function `b` (without `__builtin_`) with `args`.
    pub fn string_function(
        &mut self,
        b: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Val, FrontendError> {
        let Some(sig) = signature(b) else {
            return Err(FrontendError::Internal(format!(
                "`{b}` is not a string function"
            )));
        };
        if args.len() != sig.len() {
            return self.error(span, format!("`{b}` takes {} argument(s)", sig.len()));
        }
        let vals = self.string_args(sig, args)?;
        let (i, head, at) = self.byte_loop(b);
        let mut exits = Vec::new();
        if b == "strncmp" {
            // No byte is compared once `n` are.
            let all = self.cfa.tm.eq(at.t, vals[2]);
            let (limit, more) = self.branch(all);
            exits.push(limit);
            self.cur = more;
        }
        if b == "strcpy" {
            self.overlap_so_far(vals[0], vals[1], at.t);
            let y = self.string_byte(b, vals[1], at, span)?;
            self.write_string_byte(vals[0], at, y, span)?;
            let stop = self.is_null_byte(y);
            self.loop_until(stop, i, head);
            let d = RVal {
                t: vals[0],
                ty: CInt::PTR,
            };
            return Ok(Val::Ref(d, CType::Int(CInt::CHAR)));
        }
        let x = self.string_byte(b, vals[0], at, span)?;
        let stop = match b {
            "strlen" => self.is_null_byte(x),
            "strchr" => {
                let end = self.is_null_byte(x);
                let c = self.cfa.tm.extract(vals[1], 7, 0);
                let found = self.cfa.tm.eq(x, c);
                self.cfa.tm.or(end, found)
            }
            _ => {
                let y = self.string_byte(b, vals[1], at, span)?;
                let end = self.is_null_byte(x);
                let differ = self.cfa.tm.ne(x, y);
                let stop = self.cfa.tm.or(end, differ);
                return self.compare_result(b, args, x, y, stop, i, head, exits);
            }
        };
        self.loop_until(stop, i, head);
        Ok(match b {
            "strlen" => Val::Int(at),
            _ => {
                let c = self.cfa.tm.extract(vals[1], 7, 0);
                let found = self.cfa.tm.eq(x, c);
                let here = self.ref_add(vals[0], at, 1, false);
                let zero = self.cfa.tm.bv_const(0, ADDRESS.width(self.dm()));
                let null = self.make_ptr(0, zero);
                let t = self.cfa.tm.ite(found, here, null);
                let r = self.materialize(RVal { t, ty: CInt::PTR });
                Val::Ref(r, CType::Int(CInt::CHAR))
            }
        })
    }

    /// The arguments of a string function of signature `sig`, evaluated right to left as gcc
    /// evaluates them, each kept in a temporary: strings as general pointers, integers
    /// converted to their parameter's type.
    fn string_args(
        &mut self,
        sig: &[Arg],
        args: &[Node<Expression>],
    ) -> Result<Vec<TermId>, FrontendError> {
        let st = size_t(self.dm());
        let mut vals = Vec::new();
        for (a, kind) in args.iter().zip(sig).rev() {
            let r = match kind {
                Arg::Str => {
                    let v = self.expr(a)?;
                    self.general_pointer(v, a.span)?
                }
                Arg::Size | Arg::Int => {
                    let ty = if *kind == Arg::Size { st } else { CInt::INT };
                    let v = self.rval(a)?;
                    RVal {
                        t: self.convert(v, ty),
                        ty,
                    }
                }
            };
            vals.push(self.materialize(r).t);
        }
        vals.reverse();
        Ok(vals)
    }

    /// The start of a loop over bytes for function `b`: its index `i` (a `size_t`, 0), the
    /// loop head (the current location) and `i` as a value.
    pub(super) fn byte_loop(&mut self, b: &str) -> (PVar, Loc, RVal) {
        self.mem.learnt.bytes = true;
        let st = size_t(self.dm());
        let i = self.new_var(&format!("{b}#i"), st, VarKind::Temporary, None);
        let zero = self.cfa.tm.bv_const(0, st.width(self.dm()));
        self.assign(i, zero);
        let head = self.new_loc(b);
        self.goto_loc(head);
        let at = RVal {
            t: self.var_term(i),
            ty: st,
        };
        (i, head, at)
    }

    /// Increments `i` and goes back to `head`.
    pub(super) fn next_byte(&mut self, i: PVar, head: Loc) {
        let w = self.cfa.tm.width(self.var_term(i));
        let one = self.cfa.tm.bv_const(1, w);
        let next = self.cfa.tm.add(self.var_term(i), one);
        self.assign(i, next);
        self.goto_loc(head);
    }

    /// Ends an iteration: leaves the loop at `head` when `stop` holds, otherwise increments
    /// `i` and goes back.
    fn loop_until(&mut self, stop: TermId, i: PVar, head: Loc) {
        let (done, more) = self.branch(stop);
        self.cur = more;
        self.next_byte(i, head);
        self.cur = done;
    }

    /// The result of `strcmp` or `strncmp`: 0 when the loop ends at a null character of equal
    /// strings or at one of `exits` (all `n` bytes compared), otherwise the order of the
    /// differing bytes `x` and `y`.
    #[allow(clippy::too_many_arguments)]
    fn compare_result(
        &mut self,
        b: &str,
        args: &[Node<Expression>],
        x: TermId,
        y: TermId,
        stop: TermId,
        i: PVar,
        head: Loc,
        exits: Vec<Loc>,
    ) -> Result<Val, FrontendError> {
        self.loop_until(stop, i, head);
        let same = self.cfa.tm.eq(x, y);
        let order = self.byte_order(x, y, super::copy::string_literals(&args[..2]));
        let zero = self.cfa.tm.bv_const(0, CInt::INT.width(self.dm()));
        let t = self.cfa.tm.ite(same, zero, order);
        let r = self.new_var(&format!("{b}#r"), CInt::INT, VarKind::Temporary, None);
        self.assign(r, t);
        let end = self.new_loc(b);
        self.goto_loc(end);
        for from in exits {
            self.cur = from;
            self.assign(r, zero);
            self.goto_loc(end);
        }
        Ok(Val::Int(RVal {
            t: self.var_term(r),
            ty: CInt::INT,
        }))
    }

    fn is_null_byte(&mut self, x: TermId) -> TermId {
        let zero = self.cfa.tm.bv_const(0, 8);
        self.cfa.tm.eq(x, zero)
    }

    /// `strcpy(d, s)` about to write byte `i`: undefined when the bytes copied so far, `d[0..=i]`
    /// and `s[0..=i]`, share one (so the strings overlap exactly when some iteration finds it).
    fn overlap_so_far(&mut self, d: TermId, s: TermId, i: TermId) {
        let (od, os) = (self.ptr_obj(d), self.ptr_obj(s));
        let same = self.cfa.tm.eq(od, os);
        let (fd, fs) = (self.ptr_off(d), self.ptr_off(s));
        let i = self.cfa.tm.resize(i, self.cfa.tm.width(fd), false);
        let ds = self.cfa.tm.sub(fd, fs);
        let sd = self.cfa.tm.sub(fs, fd);
        let a = self.cfa.tm.ule(ds, i);
        let b = self.cfa.tm.ule(sd, i);
        let close = self.cfa.tm.or(a, b);
        let bad = self.cfa.tm.and(same, close);
        self.ub_check(None, bad, "strcpy between overlapping strings");
    }

    /// Writes `byte` at `at` after `p`, with the checks of `*p = …`.
    pub(super) fn write_string_byte(
        &mut self,
        p: TermId,
        at: RVal,
        byte: TermId,
        span: Span,
    ) -> Result<(), FrontendError> {
        let q = self.ref_add(p, at, 1, false);
        let Place::Scalar(lv @ Lval::Mem { .. }) =
            self.ref_place(q, &CType::Int(CInt::UCHAR), span)?
        else {
            return Err(FrontendError::Internal("the place of a byte".into()));
        };
        self.store(
            &lv,
            RVal {
                t: byte,
                ty: CInt::UCHAR,
            },
        );
        Ok(())
    }

    /// Byte `at` after `p` as an `unsigned char`, read with the checks of `*p`, kept in a
    /// temporary.
    fn string_byte(
        &mut self,
        b: &str,
        p: TermId,
        at: RVal,
        span: Span,
    ) -> Result<TermId, FrontendError> {
        let q = self.ref_add(p, at, 1, false);
        let (v, padding) = self.checked_byte(q, span)?;
        self.sink_if(
            padding,
            &format!("read of a padding byte by {b} (its value is not modelled)"),
        );
        Ok(v)
    }
}
