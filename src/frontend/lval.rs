//! Lvalues: the places an expression designates (a scalar variable, an array element, or a
//! whole array), and reading and writing them. An element's flat offset is a term over the variables at the
//! time of the subscript; it is saved in a temporary (frozen) when later side effects could
//! change what it reads.

use super::builder::Lower;
use super::repr::{ArrayView, Binding, Lval, Place, RVal, Val};
use super::types::{CInt, IntKind};
use super::FrontendError;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl<'a> Lower<'a> {
    /// The place an expression designates: a scalar or an array. Evaluates `e` once.
    pub fn place(&mut self, e: &Node<Expression>) -> Result<Place, FrontendError> {
        match &e.node {
            Expression::Identifier(id) => {
                let name = &id.node.name;
                match self.lookup(name).cloned() {
                    Some(Binding::Var(v, ty)) => Ok(Place::Scalar(Lval::Var(v, ty))),
                    Some(Binding::Array(view)) => Ok(Place::Array(view)),
                    Some(Binding::Struct(v)) => Ok(Place::Struct(v)),
                    Some(Binding::Structs(sa)) => Ok(Place::Structs(sa)),
                    Some(Binding::Ref(v, q)) => Ok(Place::Ptr(Lval::Var(v, CInt::PTR), q)),
                    Some(Binding::PtrVar(v, _)) => self.needs_general(v),
                    Some(Binding::Pointer(_, key)) => self.needs_general_key(key),
                    Some(Binding::Invalid(why)) => self.unsupported(e.span, why),
                    Some(_) => self.error(e.span, format!("`{name}` is not assignable")),
                    None => self.error(e.span, format!("undeclared identifier `{name}`")),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.subscript(&b.node.lhs, &b.node.rhs, b.span)
            }
            Expression::Member(m) => self.member_expr(m),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.deref_operand(&u.node.operand, e.span)
            }
            Expression::CompoundLiteral(c) => {
                let id = self.compound_literal(c, e.span)?;
                self.place(&id)
            }
            Expression::Cast(c) => self.unsupported(c.span, "cast as an lvalue"),
            _ => self.error(e.span, "expression is not assignable"),
        }
    }

    /// The place `*operand` designates.
    pub fn deref_operand(
        &mut self,
        operand: &Node<Expression>,
        span: Span,
    ) -> Result<Place, FrontendError> {
        match self.expr(operand)? {
            Val::Ptr(p) => self.deref_place(&p, span),
            Val::Ref(r, q) => self.ref_place(r.t, &q, span),
            Val::Array(view) => {
                let zero = self.int_const(0, CInt::INT);
                self.index_place(&view, zero, span)
            }
            Val::Structs(sa) => {
                let zero = self.int_const(0, CInt::INT);
                self.struct_index(&sa, zero, span)
            }
            Val::Struct(_) => self.error(span, "dereference of a value that is not a pointer"),
            Val::Func(..) => self.error(span, "a function used as an object"),
            Val::Addr(_) => self.unsupported(
                span,
                "dereference of a pointer that is not bound to an object (only pointers initialised with `&x` or an array)",
            ),
            Val::Int(_) | Val::Void => self.error(span, "dereference of a value that is not a pointer"),
        }
    }

    /// The scalar a place designates (an integer, not a pointer).
    pub fn scalar_lval(&mut self, place: Place, span: Span) -> Result<Lval, FrontendError> {
        match place {
            Place::Scalar(lv) => Ok(lv),
            Place::Array(_) | Place::Structs(_) => self.error(span, "assignment to an array"),
            Place::Addr(..) => self.unsupported(span, "pointer arithmetic on a pointer member"),
            Place::Ptr(..) => self.error(span, "invalid operand of a pointer operation"),
            Place::Struct(_) => self.error(span, "arithmetic on a structure"),
        }
    }

    /// The element designated by the last subscript evaluated.
    fn last_lval(&mut self, span: Span) -> Result<Lval, FrontendError> {
        match self.last_elem.take() {
            Some(lv) => Ok(lv),
            None => self.error(span, "expression is not assignable"),
        }
    }

    /// The place `view[i]` designates.
    pub fn index_place(
        &mut self,
        view: &ArrayView,
        i: RVal,
        span: Span,
    ) -> Result<Place, FrontendError> {
        self.last_elem = None;
        self.address_of_element = self.address_of == Some(span);
        let r = self.index_value(view, i);
        self.address_of_element = false;
        match r? {
            Val::Int(_) => self.last_lval(span).map(Place::Scalar),
            Val::Ref(_, q) => Ok(Place::Ptr(self.last_lval(span)?, q)),
            Val::Func(_, f) => Ok(Place::Addr(self.last_lval(span)?, f)),
            Val::Array(v) => Ok(Place::Array(v)),
            _ => Err(FrontendError::Internal("subscript value".into())),
        }
    }

    /// Saves the index of an array element in a temporary (when later effects could change
    /// the variables it reads).
    pub fn freeze(&mut self, lv: Lval) -> Lval {
        match lv {
            Lval::Elem { arr, flat, ty } if self.cfa.tm.const_value(flat).is_none() => {
                let v = self.materialize(RVal {
                    t: flat,
                    ty: CInt::new(IntKind::LongLong, false),
                });
                Lval::Elem { arr, flat: v.t, ty }
            }
            Lval::Bits { inner, width } => Lval::Bits {
                inner: Box::new(self.freeze(*inner)),
                width,
            },
            Lval::Mem { ptr, ty } => Lval::Mem {
                ptr: self
                    .materialize(RVal {
                        t: ptr,
                        ty: CInt::PTR,
                    })
                    .t,
                ty,
            },
            Lval::Field { ptr, key, ty } => Lval::Field {
                ptr: self
                    .materialize(RVal {
                        t: ptr,
                        ty: CInt::PTR,
                    })
                    .t,
                key,
                ty,
            },
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
            Lval::Elem { arr, flat, ty } => RVal {
                t: self.read_elem(arr, *flat).t,
                ty: *ty,
            },
            Lval::Bits { inner, .. } => {
                // The value lies in the range of the read's type, which may be narrower than
                // the declared one.
                let (t, ty) = (self.read(inner).t, lv.ty());
                let w = ty.width(self.dm());
                let t = if self.cfa.tm.width(t) > w {
                    self.cfa.tm.extract(t, w - 1, 0)
                } else {
                    t
                };
                RVal { t, ty }
            }
            Lval::Mem { ptr, ty } => RVal {
                t: self.mem_read(*ptr, *ty),
                ty: *ty,
            },
            Lval::Field { ptr, key, ty } => RVal {
                t: self.field_read(*ptr, key, *ty),
                ty: *ty,
            },
            Lval::Bytes { bytes, ty, guard } => self.read_member_bytes(bytes, *ty, guard.as_ref()),
            Lval::Tagged { state, ty } => self.read_tagged(state, *ty),
        }
    }

    /// The value of an assignment of `v` to `lv` (after [`Lower::store`]): the place read back
    /// (a bit-field keeps its low bits), except through a general pointer, where it is `v`
    /// converted to the access type (reading the place back would check the access again, and
    /// a byte written to padding reads back as nothing).
    pub fn stored_value(&mut self, lv: &Lval, v: RVal) -> RVal {
        match lv {
            Lval::Mem { ty, .. } => RVal {
                t: self.convert(v, *ty),
                ty: *ty,
            },
            _ => self.read(lv),
        }
    }

    /// Writes a value (converted to the place's type) to a place.
    pub fn store(&mut self, lv: &Lval, v: RVal) {
        if let Lval::Bits { inner, width } = lv {
            // Converted to the declared type, then to the width (gcc keeps the low bits).
            let ty = inner.ty();
            let t = self.convert(v, ty);
            let w = ty.width(self.dm());
            let t = if *width < w {
                let tm = &mut self.cfa.tm;
                let low = tm.extract(t, width - 1, 0);
                tm.resize(low, w, ty.signed)
            } else {
                t
            };
            self.store(inner, RVal { t, ty });
            return;
        }
        let t = self.convert(v, lv.ty());
        match lv {
            Lval::Var(x, _) => self.assign(*x, t),
            Lval::Elem { arr, .. }
                if arr
                    .elems
                    .first()
                    .is_some_and(|e| self.mem.read_only.contains(e)) =>
            {
                let yes = self.cfa.tm.tru();
                self.ub_check(None, yes, "write to a string literal");
            }
            Lval::Elem { arr, flat, .. } => self.write_elem(arr, *flat, t),
            Lval::Mem { ptr, ty } => self.mem_write(*ptr, *ty, t),
            Lval::Field { ptr, key, ty } => self.field_write(*ptr, key, *ty, t),
            Lval::Bytes { bytes, ty, guard } => {
                self.store_member_bytes(bytes, *ty, guard.as_ref(), t)
            }
            Lval::Tagged { state, ty } => self.store_tagged(state, *ty, t),
            Lval::Bits { .. } => {}
        }
    }
}
