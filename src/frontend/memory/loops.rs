//! `memset`, `memcpy`, `memmove` and `memcmp` of a size the front end does not know (or of
//! more than [`MAX_BYTES`](super::copy::MAX_BYTES)): a loop in the CFA over the bytes, one per
//! iteration, each access checked as `*p` is, with the rules of the unrolled forms:
//! - a padding byte may be copied into padding only; `memcpy` between overlapping bytes of one
//!   object is undefined, checked once before the loop for all `n` bytes;
//! - `memmove` copies from the last byte down when the destination lies after the source in
//!   the same object, otherwise from the first up, so that every byte is read before the copy
//!   overwrites it (the result of copying through a temporary, as the standard describes it);
//! - `memcmp` reads all `n` bytes of both objects (as the unrolled form, see `copy`) and keeps
//!   the order of the first differing pair; a padding byte compared is an UNKNOWN sink.

use crate::bv::TermId;
use crate::cfa::{Loc, PVar, VarKind};
use crate::frontend::builder::Lower;
use crate::frontend::repr::{Lval, Place, RVal, Val, OBJ_BITS};
use crate::frontend::types::{size_t, CInt, CType};
use crate::frontend::FrontendError;
use lang_c::span::Span;

impl<'a> Lower<'a> {
    /// `memset(d, c, n)` (`second` the byte `c`), `memcpy(d, s, n)` or `memmove(d, s, n)`
    /// (`second` the pointer `s`) as a loop over `n` bytes; the value is `d`.
    pub(super) fn mem_loop(
        &mut self,
        b: &str,
        d: RVal,
        second: Val,
        n: TermId,
        span: Span,
    ) -> Result<Val, FrontendError> {
        let st = size_t(self.dm());
        let n = self.kept_size(n);
        let down = match &second {
            Val::Ref(s, _) if b == "memmove" => Some(self.copies_down(d.t, s.t)),
            Val::Ref(s, _) => {
                self.overlap_check_term(d.t, s.t, n);
                None
            }
            _ => None,
        };
        let (i, head, count, done) = self.counted_loop(b, n);
        // The byte of this iteration: `count`, or `n - 1 - count` when copying down.
        let at = match down {
            Some(down) => {
                let one = self.cfa.tm.bv_const(1, st.width(self.dm()));
                let last = self.cfa.tm.sub(n, one);
                let from_end = self.cfa.tm.sub(last, count.t);
                RVal {
                    t: self.cfa.tm.ite(down, from_end, count.t),
                    ty: st,
                }
            }
            None => count,
        };
        let byte = match second {
            Val::Int(c) => c.t,
            Val::Ref(s, _) => {
                let q = self.ref_add(s.t, at, 1, false);
                let (byte, padding) = self.checked_byte(q, span)?;
                let to = self.ref_add(d.t, at, 1, false);
                let into = self.at_padding(to);
                let into = self.cfa.tm.not(into);
                let bad = self.cfa.tm.and(padding, into);
                self.sink_if(
                    bad,
                    "copy of a padding byte into a value (its value is not modelled)",
                );
                byte
            }
            _ => {
                return Err(FrontendError::Internal(
                    "the second argument of a memory function".into(),
                ))
            }
        };
        self.write_string_byte(d.t, at, byte, span)?;
        self.next_byte(i, head);
        self.cur = done;
        Ok(Val::Ref(d, CType::Void))
    }

    /// The size `n` (a `size_t`) kept in a temporary, so that the loop over its bytes reads
    /// the value it had at the call.
    fn kept_size(&mut self, n: TermId) -> TermId {
        let st = size_t(self.dm());
        self.materialize(RVal { t: n, ty: st }).t
    }

    /// The start of a loop over the `n` bytes of function `b` ([`Lower::byte_loop`]): its
    /// index, its head and the index as a value, with the current location in its body; and
    /// the location after it, reached once the index is `n`. An iteration ends with
    /// [`Lower::next_byte`].
    fn counted_loop(&mut self, b: &str, n: TermId) -> (PVar, Loc, RVal, Loc) {
        let (i, head, count) = self.byte_loop(b);
        let all = self.cfa.tm.eq(count.t, n);
        let (done, more) = self.branch(all);
        self.cur = more;
        (i, head, count, done)
    }

    /// Whether `memmove(d, s, …)` copies from the last byte down: `d` lies after `s` in the
    /// same object.
    fn copies_down(&mut self, d: TermId, s: TermId) -> TermId {
        let (od, os) = (self.ptr_obj(d), self.ptr_obj(s));
        let same = self.cfa.tm.eq(od, os);
        let (fd, fs) = (self.ptr_off(d), self.ptr_off(s));
        let after = self.cfa.tm.ult(fs, fd);
        self.cfa.tm.and(same, after)
    }

    /// `memcmp(a, b, n)` as a loop over all `n` bytes: 0, or the order of the first differing
    /// bytes ([`Lower::byte_order`]; `literals` when both are string literals).
    pub(super) fn compare_loop(
        &mut self,
        a: TermId,
        b: TermId,
        n: TermId,
        literals: bool,
        span: Span,
    ) -> Result<Val, FrontendError> {
        let n = self.kept_size(n);
        let r = self.new_var("memcmp#r", CInt::INT, VarKind::Temporary, None);
        let zero = self.cfa.tm.bv_const(0, CInt::INT.width(self.dm()));
        self.assign(r, zero);
        let (i, head, at, done) = self.counted_loop("memcmp", n);
        let mut bytes = Vec::new();
        for p in [a, b] {
            let q = self.ref_add(p, at, 1, false);
            let (byte, padding) = self.checked_byte(q, span)?;
            self.sink_if(
                padding,
                "comparison of a padding byte by memcmp (its value is not modelled)",
            );
            bytes.push(byte);
        }
        // The order of the first differing pair: an order is never 0.
        let (x, y) = (bytes[0], bytes[1]);
        let so_far = self.var_term(r);
        let undecided = self.cfa.tm.eq(so_far, zero);
        let differ = self.cfa.tm.ne(x, y);
        let first = self.cfa.tm.and(undecided, differ);
        let order = self.byte_order(x, y, literals);
        let t = self.cfa.tm.ite(first, order, so_far);
        self.assign(r, t);
        self.next_byte(i, head);
        self.cur = done;
        Ok(Val::Int(RVal {
            t: self.var_term(r),
            ty: CInt::INT,
        }))
    }

    /// The byte `*q` (checked) kept in a temporary, and whether it is padding.
    pub(super) fn checked_byte(
        &mut self,
        q: TermId,
        span: Span,
    ) -> Result<(TermId, TermId), FrontendError> {
        let Place::Scalar(Lval::Mem { ptr, ty }) =
            self.ref_place(q, &CType::Int(CInt::UCHAR), span)?
        else {
            return Err(FrontendError::Internal("the place of a byte".into()));
        };
        let (v, padding) = self.mem_read_parts(ptr, ty);
        Ok((self.materialize(RVal { t: v, ty }).t, padding))
    }

    /// `memcpy` of the `n` bytes after `s` to those after `d` (`n` a term): undefined when both
    /// are in one object and the ranges overlap.
    pub(super) fn overlap_check_term(&mut self, d: TermId, s: TermId, n: TermId) {
        let (od, os) = (self.ptr_obj(d), self.ptr_obj(s));
        let same = self.cfa.tm.eq(od, os);
        let zero = self.cfa.tm.bv_const(0, OBJ_BITS);
        let object = self.cfa.tm.eq(od, zero);
        let object = self.cfa.tm.not(object);
        let (fd, fs) = (self.ptr_off(d), self.ptr_off(s));
        let w = self.cfa.tm.width(fd);
        let nc = self.cfa.tm.resize(n, w, false);
        let ds = self.cfa.tm.sub(fd, fs);
        let sd = self.cfa.tm.sub(fs, fd);
        let a = self.cfa.tm.ult(ds, nc);
        let b = self.cfa.tm.ult(sd, nc);
        let close = self.cfa.tm.or(a, b);
        let both = self.cfa.tm.and(same, object);
        let bad = self.cfa.tm.and(both, close);
        self.ub_check(None, bad, "memcpy between overlapping bytes");
    }
}
