//! `memset` and `memcpy` of a size the front end does not know (or of more than
//! [`MAX_BYTES`](super::copy::MAX_BYTES)): a loop in the CFA over the bytes, one per iteration,
//! each access checked as `*p` is, with the rules of the unrolled copies (a padding byte may be
//! copied into padding only; `memcpy` between overlapping bytes of one object is undefined,
//! checked once before the loop for all `n` bytes).

use super::OBJ_BITS;
use crate::bv::TermId;
use crate::frontend::builder::{Lower, RVal};
use crate::frontend::expr::Val;
use crate::frontend::lval::Lval;
use crate::frontend::pointer::Place;
use crate::frontend::types::{size_t, CInt, CType};
use crate::frontend::FrontendError;
use lang_c::span::Span;

impl<'a> Lower<'a> {
    /// `memset(d, c, n)` (`second` the byte `c`) or `memcpy(d, s, n)` (`second` the pointer
    /// `s`) as a loop over `n` bytes; the value is `d`.
    pub(super) fn mem_loop(
        &mut self,
        b: &str,
        d: RVal,
        second: Val,
        n: TermId,
        span: Span,
    ) -> Result<Val, FrontendError> {
        let st = size_t(self.dm());
        let n = self.materialize(RVal { t: n, ty: st }).t;
        if let Val::Ref(s, _) = &second {
            self.overlap_check_term(d.t, s.t, n);
        }
        let (i, head, at) = self.byte_loop(b);
        let all = self.cfa.tm.eq(at.t, n);
        let (done, more) = self.branch(all);
        self.cur = more;
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
