//! Lvalues: the places an expression designates (a scalar variable or an array element), and
//! reading and writing them. An element's flat offset is a term over the variables at the
//! time of the subscript; it is saved in a temporary (frozen) when later side effects could
//! change what it reads.

use super::array::ArrayObj;
use super::builder::{Binding, Lower, RVal};
use super::expr::Val;
use super::types::{CInt, IntKind};
use super::FrontendError;
use crate::bv::TermId;
use crate::cfa::PVar;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::rc::Rc;

/// A place that can be read and written.
#[derive(Clone, Debug)]
pub enum Lval {
    Var(PVar, CInt),
    /// An element of an array at a flat offset (a 64-bit term, checked to be in bounds).
    Elem {
        arr: Rc<ArrayObj>,
        flat: TermId,
    },
}

impl Lval {
    /// The type of the place.
    pub fn ty(&self) -> CInt {
        match self {
            Lval::Var(_, t) => *t,
            Lval::Elem { arr, .. } => arr.elem,
        }
    }
}

impl<'a> Lower<'a> {
    /// The place an expression designates.
    pub fn lval(&mut self, e: &Node<Expression>) -> Result<Lval, FrontendError> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name).cloned() {
                Some(Binding::Var(v, ty)) => Ok(Lval::Var(v, ty)),
                Some(Binding::Alias(_)) => self.unsupported(e.span, "assignment to a pointer"),
                Some(Binding::Array(_)) => self.error(e.span, "assignment to an array"),
                Some(Binding::PointerTo(_)) => self.unsupported(e.span, "assignment to a pointer"),
                Some(_) => self.error(e.span, format!("`{}` is not assignable", id.node.name)),
                None => self.error(e.span, format!("undeclared identifier `{}`", id.node.name)),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.last_elem = None;
                match self.expr(e)? {
                    Val::Int(_) => self.last_lval(e.span),
                    _ => self.error(e.span, "assignment to an array"),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                match self.expr(&u.node.operand)? {
                    Val::Ptr(lv) => Ok(lv),
                    Val::Array(view) => {
                        let zero = self.int_const(0, CInt::INT);
                        self.last_elem = None;
                        self.index_value(&view, zero)?;
                        self.last_lval(e.span)
                    }
                    _ => self.unsupported(e.span, "pointer dereference"),
                }
            }
            Expression::Cast(c) => self.unsupported(c.span, "cast as an lvalue"),
            _ => self.error(e.span, "expression is not assignable"),
        }
    }

    /// The element designated by the last subscript evaluated.
    fn last_lval(&mut self, span: Span) -> Result<Lval, FrontendError> {
        match self.last_elem.take() {
            Some(lv) => Ok(lv),
            None => self.error(span, "expression is not assignable"),
        }
    }

    /// Saves the index of an array element in a temporary (when later effects could change
    /// the variables it reads).
    pub fn freeze(&mut self, lv: Lval) -> Lval {
        match lv {
            Lval::Elem { arr, flat } if self.cfa.tm.const_value(flat).is_none() => {
                let v = self.materialize(RVal {
                    t: flat,
                    ty: CInt::new(IntKind::LongLong, false),
                });
                Lval::Elem { arr, flat: v.t }
            }
            lv => lv,
        }
    }

    /// Reads a place.
    pub fn read(&mut self, lv: &Lval) -> RVal {
        match lv {
            Lval::Var(v, ty) => RVal {
                t: self.var_term(*v),
                ty: *ty,
            },
            Lval::Elem { arr, flat } => self.read_elem(arr, *flat),
        }
    }

    /// Writes a value (converted to the place's type) to a place.
    pub fn store(&mut self, lv: &Lval, v: RVal) {
        let t = self.convert(v, lv.ty());
        match lv {
            Lval::Var(x, _) => self.assign(*x, t),
            Lval::Elem { arr, flat } => self.write_elem(arr, *flat, t),
        }
    }
}
