//! String literals: each one an object of its own, an array of `char` holding the literal's
//! bytes and its terminating NUL, created the first time the literal is lowered and initialised
//! with static storage (before `main`, or in order among the globals' initialisers). A literal
//! is an array like any other (`sizeof "abc"` is 4, `"abc"[1]` is `'b'`, `const char *s = "abc"`
//! points to it, a general pointer can walk it), except that writing it is undefined (gcc puts
//! it in read-only memory): a write ends in an UNKNOWN sink.

use super::builder::Lower;
use super::literal::string_bytes;
use super::repr::{ArrayObj, ArrayView, Val};
use super::types::CInt;
use super::FrontendError;
use crate::cfa::{PVar, SrcPos, VarKind};
use lang_c::ast::Expression;
use lang_c::span::Node;
use std::rc::Rc;

impl<'a> Lower<'a> {
    /// The array object of the string literal `e` (made of adjacent `pieces`).
    pub fn string_literal(
        &mut self,
        e: &Node<Expression>,
        pieces: &[String],
    ) -> Result<Val, FrontendError> {
        if let Some(view) = self.literals.get(&e.span.start) {
            return Ok(Val::Array(view.clone()));
        }
        let Some(mut bytes) = string_bytes(pieces) else {
            return self.unsupported(e.span, "wide or non-ASCII string literal");
        };
        bytes.push(0);
        let len = bytes.len() as u64;
        if len > self.opts.max_array_elements {
            let max = self.opts.max_array_elements;
            return self.unsupported(e.span, format!("string literal of more than {max} bytes"));
        }
        let pos = self.span_pos(e.span);
        let name = format!("string@{}:{}", pos.line, pos.col);
        // Inside a function, the initialisation goes where static locals are initialised;
        // among the globals' initialisers, where it is.
        let elems = if self.fctx.is_some() {
            self.in_static_init(|lw| lw.literal_cells(&name, &pos, &bytes))
        } else {
            self.literal_cells(&name, &pos, &bytes)
        };
        let arr = Rc::new(ArrayObj {
            elems,
            elem: CInt::CHAR,
            pointee: None,
            at: None,
        });
        self.mem.read_only.extend(arr.elems.iter().copied());
        self.declare_object(super::repr::Root::Array(&arr));
        let view = ArrayView {
            arr,
            base: self.cfa.tm.bv_const(0, 64),
            dims: vec![len],
            access: CInt::CHAR,
        };
        self.literals.insert(e.span.start, view.clone());
        Ok(Val::Array(view))
    }

    /// The variables of a literal's bytes, each assigned its byte.
    fn literal_cells(&mut self, name: &str, pos: &SrcPos, bytes: &[u8]) -> Vec<PVar> {
        let mut elems = Vec::with_capacity(bytes.len());
        for (i, b) in bytes.iter().enumerate() {
            let v = self.new_var(
                &format!("{name}[{i}]"),
                CInt::CHAR,
                VarKind::Global,
                Some(pos.clone()),
            );
            let t = self.cfa.tm.bv_const(u128::from(*b), 8);
            self.assign(v, t);
            elems.push(v);
        }
        elems
    }
}
