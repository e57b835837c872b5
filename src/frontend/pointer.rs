//! Pointers bound to one object and address-only pointers: the cheap encodings, used wherever
//! they are exact; every other pointer is general (see [`super::memory`]).
//!
//! A pointer value of these kinds is one of two:
//!
//! - **Bound to an object** ([`Pointer`]): it designates one scalar object or a position in an
//!   array, fixed where the pointer gets its value (`int *p = &x;`, `int *q = a;`, a pointer
//!   parameter bound to its argument, a cast). `*p`, `p[0]` and `q[i]` read and write that
//!   object. The declared pointee type decides how the object is accessed: as its own type, or
//!   as another integer type of the same width where neither is `_Bool` (signed and unsigned
//!   variants, `char` and `unsigned char`, `int` and `long` under ILP32), whose reads
//!   reinterpret the object's bits — what the compiled program does. A pointer to `void` keeps
//!   its object but cannot be dereferenced; converting it to a pointer to an integer type checks
//!   that type against the object again. A conversion to a pointer to a type of another width (a
//!   byte view of an `int`, an `int` read over a `char`) or to a structure of another type
//!   gives a general pointer ([`super::memory`]'s byte views); one to another array shape is
//!   unsupported, never an access of the wrong size. Where a bound pointer is assigned,
//!   incremented, compared or subtracted, it becomes a general pointer.
//! - **An address only** ([`Val::Addr`]): the value of a pointer variable that is never bound
//!   to an object — declared without an initialiser, or given null, integers cast to a pointer
//!   type and copies of such values (CIL's `void *` temporaries). It is an unsigned integer of
//!   the data model's pointer width that may be copied, compared, tested and cast to an
//!   integer. A variable that is given an object's address becomes a general pointer.
//!   No object's address ever becomes a number, so these values are exact.

use super::builder::Lower;
use super::repr::{Binding, Place, Pointer, RVal, Val, ADDRESS};
use super::types::{CInt, CType, IntKind};
use super::FrontendError;
use lang_c::span::Span;

impl<'a> Lower<'a> {
    /// `v` converted to a pointer to `pointee` (at an initialisation, argument, assignment or
    /// cast): the pointer it binds, or `None` if `v` is an integer or an address-only pointer.
    pub fn bind_pointer(
        &mut self,
        v: Val,
        pointee: &CType,
        span: Span,
    ) -> Result<Option<Pointer>, FrontendError> {
        let p = match Pointer::of_value(v) {
            Ok(p) => p,
            Err(Val::Int(_) | Val::Addr(_)) => return Ok(None),
            Err(Val::Ptr(_) | Val::Array(_) | Val::Structs(_)) => {
                return Err(FrontendError::Internal("a pointer not taken as one".into()))
            }
            Err(Val::Ref(..)) => {
                return Err(FrontendError::Internal(
                    "a general pointer where a pointer bound to an object is needed".into(),
                ))
            }
            Err(Val::Void) => return self.error(span, "void value used as a pointer"),
            Err(Val::Struct(_)) => return self.error(span, "structure used as a pointer"),
            Err(Val::Func(..)) => {
                return self.unsupported(
                    span,
                    "a function pointer converted to a pointer to an object",
                )
            }
        };
        self.retarget(p, pointee, span).map(Some)
    }

    /// The address-only pointer value `v` gives a pointer variable or member (`target` names
    /// it in the message when `v` is an object's address, which only initialisation binds).
    pub fn address_value(
        &mut self,
        v: Val,
        span: Span,
        target: &str,
    ) -> Result<RVal, FrontendError> {
        match v {
            Val::Int(r) | Val::Addr(r) => Ok(self.address(r)),
            Val::Void => self.error(span, "void value assigned to a pointer"),
            Val::Struct(_) => self.error(span, "structure assigned to a pointer"),
            Val::Ptr(_) | Val::Array(_) | Val::Structs(_) | Val::Func(..) | Val::Ref(..) => self.unsupported(
                span,
                format!(
                    "the address of an object assigned to {target} (pointers bound to an object are only variables initialised with one)"
                ),
            ),
        }
    }

    /// An address-only pointer value from an integer or another address-only pointer.
    pub fn address(&mut self, v: RVal) -> RVal {
        RVal {
            t: self.convert(v, ADDRESS),
            ty: ADDRESS,
        }
    }

    /// `p` seen as a pointer to `pointee`.
    fn retarget(
        &mut self,
        mut p: Pointer,
        pointee: &CType,
        span: Span,
    ) -> Result<Pointer, FrontendError> {
        match pointee {
            CType::Void => p.void = true,
            CType::Int(to) => {
                match &mut p.target {
                    Place::Scalar(lv) => {
                        let a = self.access_type(lv.ty(), *to, span)?;
                        lv.set_ty(a);
                    }
                    Place::Array(view) if view.dims.len() == 1 => {
                        view.access = self.access_type(view.access, *to, span)?;
                    }
                    target => {
                        let from = target.describe();
                        let what = format!(
                            "conversion of a pointer to `{from}` to a pointer to `{}`",
                            to.name()
                        );
                        return self.unsupported(span, what);
                    }
                }
                p.void = false;
            }
            CType::Array(..) => {
                // A pointer to arrays: `int (*p)[4]`, a parameter `int a[][4]`.
                let shape = pointee.array_shape().and_then(|(t, ds)| {
                    let ds: Option<Vec<u64>> = ds.into_iter().collect();
                    ds.map(|ds| (t, ds))
                });
                match (&mut p.target, shape) {
                    (Place::Array(view), Some((to, ds))) if view.dims[1..] == ds[..] => {
                        view.access = self.access_type(view.access, to, span)?;
                    }
                    (target, _) => {
                        let from = target.describe();
                        let what = format!(
                            "conversion of a pointer to `{from}` to a pointer to `{}`",
                            pointee.describe()
                        );
                        return self.unsupported(span, what);
                    }
                }
                p.void = false;
            }
            CType::Struct(def) => {
                let fits = match &p.target {
                    Place::Struct(v) => v.def == *def,
                    Place::Structs(sa) => sa.dims.len() == 1 && sa.def == *def,
                    _ => false,
                };
                if !fits {
                    let what = format!(
                        "conversion of a pointer to `{}` to a pointer to `{}`",
                        p.target.describe(),
                        pointee.describe()
                    );
                    return self.unsupported(span, what);
                }
                p.void = false;
            }
            // A pointer to the elements of an array of pointers, or to a pointer variable.
            CType::Pointer(_) => match &p.target {
                Place::Array(view) if view.dims.len() == 1 && view.arr.pointee.is_some() => {
                    p.void = false;
                }
                Place::Ptr(..) => p.void = false,
                _ => return self.unsupported(span, "pointers to pointers"),
            },
            CType::Unsupported(w) => return self.unsupported(span, w.clone()),
            CType::Function(..) => return self.unsupported(span, "function pointers"),
        }
        Ok(p)
    }

    /// The type an object whose accesses so far are of type `object` is accessed as through a
    /// pointer to `to`: `to`, when both have the same width and neither is `_Bool`.
    fn access_type(&mut self, object: CInt, to: CInt, span: Span) -> Result<CInt, FrontendError> {
        let dm = self.dm();
        let is_bool = |t: CInt| t.kind == IntKind::Bool;
        if object == to || (object.width(dm) == to.width(dm) && !is_bool(object) && !is_bool(to)) {
            return Ok(to);
        }
        self.unsupported(
            span,
            format!(
                "access to an object of type `{}` through a pointer to `{}` (only types of the same width)",
                object.name(),
                to.name()
            ),
        )
    }

    /// The place `*p` designates.
    pub fn deref_place(&mut self, p: &Pointer, span: Span) -> Result<Place, FrontendError> {
        if p.void {
            return self.error(span, "dereferencing a `void *` pointer");
        }
        match &p.target {
            Place::Scalar(lv) => Ok(Place::Scalar(lv.clone())),
            Place::Array(view) => {
                let zero = self.int_const(0, CInt::INT);
                self.index_place(view, zero, span)
            }
            Place::Struct(v) => Ok(Place::Struct(v.clone())),
            Place::Ptr(lv, q) => Ok(Place::Ptr(lv.clone(), q.clone())),
            Place::Structs(sa) => {
                let zero = self.int_const(0, CInt::INT);
                self.struct_index(sa, zero, span)
            }
            Place::Addr(..) => Err(FrontendError::Internal(
                "pointer to a pointer member".into(),
            )),
        }
    }

    /// The place `p[i]` designates.
    pub fn subscript_place(
        &mut self,
        p: &Pointer,
        i: RVal,
        span: Span,
    ) -> Result<Place, FrontendError> {
        if p.void {
            return self.error(span, "subscript of a `void *` pointer");
        }
        match &p.target {
            Place::Scalar(_) | Place::Struct(_) | Place::Ptr(..) => {
                if self.cfa.tm.const_value(i.t) != Some(0) {
                    return self.unsupported(
                        span,
                        "pointer arithmetic (subscript of a pointer to a scalar or a structure)",
                    );
                }
                Ok(p.target.clone())
            }
            Place::Array(view) => self.index_place(view, i, span),
            Place::Structs(sa) => self.struct_index(sa, i, span),
            Place::Addr(..) => Err(FrontendError::Internal(
                "pointer to a pointer member".into(),
            )),
        }
    }

    /// The value of a place: a scalar is read, an array stays an array.
    pub fn place_value(&mut self, place: Place) -> Val {
        match place {
            Place::Scalar(lv) => {
                let v = self.read(&lv);
                self.last_elem = Some(lv);
                Val::Int(v)
            }
            Place::Array(view) => Val::Array(view),
            Place::Addr(lv, f) => Val::Func(self.read(&lv), f),
            Place::Ptr(lv, q) => {
                let v = self.read(&lv);
                self.last_elem = Some(lv);
                Val::Ref(v, q)
            }
            Place::Struct(v) => Val::Struct(v),
            Place::Structs(sa) => Val::Structs(sa),
        }
    }

    /// A pointer whose target no later side effect can move (its offset saved in temporaries).
    pub fn freeze_pointer(&mut self, p: Pointer) -> Pointer {
        let target = match p.target {
            Place::Scalar(lv) => Place::Scalar(self.freeze(lv)),
            Place::Ptr(lv, q) => Place::Ptr(self.freeze(lv), q),
            Place::Array(mut view) => {
                let base = RVal {
                    t: view.base,
                    ty: CInt::new(IntKind::LongLong, false),
                };
                view.base = self.materialize(base).t;
                Place::Array(view)
            }
            // A structure's place is fixed when it is made (see `struct_index`).
            t @ (Place::Addr(..) | Place::Struct(_) | Place::Structs(_)) => t,
        };
        Pointer { target, ..p }
    }

    /// The binding of a pointer variable initialised with (or a pointer parameter given) `v`:
    /// bound to an object if `v` designates one, otherwise an address-only variable.
    pub fn pointer_binding(
        &mut self,
        name: &str,
        v: Val,
        pointee: &CType,
        kind: crate::cfa::VarKind,
        span: Span,
    ) -> Result<Binding, FrontendError> {
        let pos = self.span_pos(span);
        let key = super::repr::declaration_key(name, Some(&pos));
        let v = match pointee {
            CType::Int(to) => self.view_as(&v, *to, span)?.unwrap_or(v),
            _ => v,
        };
        // A pointer to an array steps over whole arrays (rows): general.
        if self.mem.plan.general.contains(&key)
            || matches!(v, Val::Ref(..))
            || matches!(pointee, CType::Array(..))
        {
            let r = self.general_pointer(v, span)?;
            let pv = self.new_var(name, CInt::PTR, kind, Some(pos));
            self.assign(pv, r.t);
            self.declare_object(super::repr::Root::Scalar(pv, CInt::PTR));
            return Ok(Binding::Ref(pv, pointee.clone()));
        }
        match self.bind_pointer(v.clone(), pointee, span)? {
            Some(p) => Ok(Binding::Pointer(self.freeze_pointer(p), key)),
            None => {
                let (Val::Int(r) | Val::Addr(r)) = v else {
                    return Err(FrontendError::Internal("pointer value".into()));
                };
                let a = self.address(r);
                let pos = Some(self.span_pos(span));
                let pv = self.new_var(name, ADDRESS, kind, pos);
                self.assign(pv, a.t);
                Ok(Binding::PtrVar(pv, pointee.clone()))
            }
        }
    }
}
