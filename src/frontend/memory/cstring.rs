//! `strlen` and `strcmp` (and their `__builtin_` forms): loops in the CFA over the bytes after
//! general pointers, one byte (of each string) per iteration, each access checked as `*p` is
//! (null, outside the object, dangling), so that a string whose null character is not inside
//! its object ends in the UNKNOWN sink of an access outside it, and a padding byte read is an
//! UNKNOWN sink. `strcmp` returns 0 for equal strings and otherwise what `memcmp` returns for
//! the first differing bytes (glibc's result, see [`Lower::byte_order`]).

use crate::bv::TermId;
use crate::cfa::VarKind;
use crate::frontend::builder::{Lower, RVal};
use crate::frontend::expr::Val;
use crate::frontend::lval::Lval;
use crate::frontend::pointer::Place;
use crate::frontend::types::{size_t, CInt, CType};
use crate::frontend::FrontendError;
use lang_c::ast::Expression;
use lang_c::span::{Node, Span};

impl<'a> Lower<'a> {
    /// Whether `b` (a name without `__builtin_`) is a function of this module.
    pub fn is_string_function(b: &str) -> bool {
        matches!(b, "strlen" | "strcmp")
    }

    /// A call of `strlen` or `strcmp` (`b`, without `__builtin_`) with `args`.
    pub fn string_function(
        &mut self,
        b: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Result<Val, FrontendError> {
        let arity = if b == "strlen" { 1 } else { 2 };
        if args.len() != arity {
            return self.error(span, format!("`{b}` takes {arity} argument(s)"));
        }
        // Arguments right to left, as gcc evaluates them, each kept in a temporary.
        let mut strings = Vec::new();
        for a in args.iter().rev() {
            let v = self.expr(a)?;
            let p = self.general_pointer(v, a.span)?;
            strings.push(self.materialize(p).t);
        }
        strings.reverse();
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
        let mut bytes = Vec::new();
        for &p in &strings {
            bytes.push(self.string_byte(b, p, at, span)?);
        }
        let tm = &mut self.cfa.tm;
        let zero_byte = tm.bv_const(0, 8);
        let end = tm.eq(bytes[0], zero_byte);
        let stop = match bytes[..] {
            [x, y] => {
                let differ = tm.ne(x, y);
                tm.or(end, differ)
            }
            _ => end,
        };
        let (done, more) = self.branch(stop);
        self.cur = more;
        let one = self.cfa.tm.bv_const(1, st.width(self.dm()));
        let next = self.cfa.tm.add(at.t, one);
        self.assign(i, next);
        self.goto_loc(head);
        self.cur = done;
        Ok(Val::Int(match bytes[..] {
            [x, y] => {
                let same = self.cfa.tm.eq(x, y);
                let order = self.byte_order(x, y, super::copy::string_literals(args));
                let zero = self.cfa.tm.bv_const(0, CInt::INT.width(self.dm()));
                RVal {
                    t: self.cfa.tm.ite(same, zero, order),
                    ty: CInt::INT,
                }
            }
            _ => at,
        }))
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
        let Place::Scalar(Lval::Mem { ptr, ty }) =
            self.ref_place(q, &CType::Int(CInt::UCHAR), span)?
        else {
            return Err(FrontendError::Internal("the place of a byte".into()));
        };
        let (v, padding) = self.mem_read_parts(ptr, ty);
        self.sink_if(
            padding,
            &format!("read of a padding byte by {b} (its value is not modelled)"),
        );
        Ok(self.materialize(RVal { t: v, ty }).t)
    }
}
