//! General pointer values: building them from objects' places, arithmetic, comparison,
//! difference, truth and conversion to integers, with the checks of what C leaves undefined.

use super::first_cell;
use crate::bv::TermId;
use crate::cfa::DataModel;
use crate::frontend::arith::BinOp;
use crate::frontend::builder::Lower;
use crate::frontend::repr::{ptr_width, ArrayObj, Lval, Place, RVal, Root, Val, ADDRESS, OBJ_BITS};
use crate::frontend::types::{CInt, CType, IntKind, StructRef};
use crate::frontend::FrontendError;
use lang_c::span::Span;
use std::rc::Rc;

impl<'a> Lower<'a> {
    /// A general pointer of object `obj` at offset `off` (a term of the pointer width).
    pub fn make_ptr(&mut self, obj: u32, off: TermId) -> TermId {
        let o = self.cfa.tm.bv_const(u128::from(obj), OBJ_BITS);
        self.cfa.tm.concat(o, off)
    }

    /// The object number of a general pointer.
    pub fn ptr_obj(&mut self, p: TermId) -> TermId {
        let w = ptr_width(self.dm());
        self.cfa.tm.extract(p, w - 1, w - OBJ_BITS)
    }

    /// The offset (or address) of a general pointer.
    pub fn ptr_off(&mut self, p: TermId) -> TermId {
        let aw = ADDRESS.width(self.dm());
        self.cfa.tm.extract(p, aw - 1, 0)
    }

    /// The value of `v` converted to a pointer to `to` when that conversion needs a general
    /// pointer: `v` points to an integer object of another width (a byte view), to a
    /// structure, or into an array of several dimensions, or is a general pointer to `void`,
    /// to a structure or array, or to an integer of another width. A byte view is recorded in
    /// the plan ([`super::MemPlan::bytes`]). `None`: the conversion keeps `v`'s encoding.
    pub fn view_as(&mut self, v: &Val, to: CInt, span: Span) -> Result<Option<Val>, FrontendError> {
        if matches!(to.kind, IntKind::Bool | IntKind::Ptr) {
            return Ok(None);
        }
        let dm = self.dm();
        let other = |t: CInt| {
            t.width(dm) != to.width(dm) && !matches!(t.kind, IntKind::Bool | IntKind::Ptr)
        };
        let (general, bytes) = match v {
            Val::Ptr(p) => match &p.target {
                Place::Scalar(lv) => (other(lv.ty()), other(lv.ty())),
                Place::Array(view) => (
                    view.dims.len() > 1 || other(view.access),
                    other(view.access),
                ),
                Place::Struct(_) | Place::Structs(_) => (true, true),
                Place::Addr(..) | Place::Ptr(..) => (false, false),
            },
            Val::Array(view) => (
                view.dims.len() > 1 || other(view.access),
                other(view.access),
            ),
            Val::Structs(_) => (true, true),
            Val::Ref(_, old) => match old {
                CType::Int(t) => (true, other(*t)),
                CType::Void | CType::Struct(_) | CType::Array(..) => (true, true),
                _ => (true, false),
            },
            _ => (false, false),
        };
        if !general {
            return Ok(None);
        }
        if bytes {
            self.mem.learnt.bytes = true;
        }
        let r = self.general_pointer(v.clone(), span)?;
        Ok(Some(Val::Ref(r, CType::Int(to))))
    }

    /// The value of `v` converted to a pointer to the structure or union `def` when that
    /// conversion needs a general pointer: `v` points to an object that is not a `def` (an
    /// integer, an array, a structure of another type) or is a general pointer to something
    /// else. The members are then read and written as byte views of the object's cells
    /// ([`super::MemPlan::bytes`]), so a member that lands on no cell or on padding is an
    /// UNKNOWN sink. `None`: the conversion keeps `v`'s encoding.
    pub fn struct_view_as(
        &mut self,
        v: &Val,
        def: &StructRef,
        span: Span,
    ) -> Result<Option<Val>, FrontendError> {
        let same = match v {
            Val::Ptr(p) => match &p.target {
                Place::Struct(sv) => sv.def == *def,
                Place::Structs(sa) => sa.dims.len() == 1 && sa.def == *def,
                Place::Addr(..) => true,
                _ => false,
            },
            Val::Structs(sa) => sa.dims.len() == 1 && sa.def == *def,
            Val::Ref(_, CType::Struct(old)) => old == def,
            Val::Ref(_, CType::Void) | Val::Int(_) | Val::Addr(_) => true,
            Val::Ref(..) | Val::Array(_) => false,
            Val::Struct(_) | Val::Func(..) | Val::Void => true,
        };
        if same {
            return Ok(None);
        }
        self.mem.learnt.bytes = true;
        let r = self.general_pointer(v.clone(), span)?;
        Ok(Some(Val::Ref(r, CType::Struct(def.clone()))))
    }

    /// The general pointer for a pointer value `v` (converted to a pointer type).
    pub fn general_pointer(&mut self, v: Val, span: Span) -> Result<RVal, FrontendError> {
        let t = match v {
            Val::Ref(r, _) => r.t,
            Val::Int(r) | Val::Addr(r) => {
                let a = self.convert(r, ADDRESS);
                self.make_ptr(0, a)
            }
            Val::Ptr(p) => self.place_ref(&p.target, span)?,
            Val::Array(view) => {
                let lv = Lval::Elem {
                    arr: view.arr.clone(),
                    flat: view.base,
                    ty: view.access,
                };
                self.place_ref(&Place::Scalar(lv), span)?
            }
            Val::Structs(sa) => self.place_ref(&Place::Structs(sa), span)?,
            Val::Struct(_) => return self.error(span, "structure used as a pointer"),
            Val::Func(..) => {
                return self.unsupported(
                    span,
                    "a function pointer converted to a pointer to an object",
                )
            }
            Val::Void => return self.error(span, "void value used as a pointer"),
        };
        Ok(RVal { t, ty: CInt::PTR })
    }

    /// Whether the elements of `arr` (the first at `base` in object `obj`) follow each other
    /// (not so for a member of the elements of an array of structures); computed once per
    /// array.
    fn contiguous(&mut self, arr: &Rc<ArrayObj>, obj: u32, base: u64) -> bool {
        let key = Rc::as_ptr(arr) as usize;
        if let Some(&c) = self.mem.contiguous.get(&key) {
            return c;
        }
        let es = self.cell_size(arr.elem);
        let c = arr
            .elems
            .iter()
            .enumerate()
            .all(|(i, v)| self.mem.home.get(v) == Some(&(obj, base + i as u64 * es)));
        self.mem.contiguous.insert(key, c);
        c
    }

    /// The general pointer to what a place designates.
    pub fn place_ref(&mut self, place: &Place, span: Span) -> Result<TermId, FrontendError> {
        let aw = ADDRESS.width(self.dm());
        match place {
            Place::Scalar(Lval::Var(v, ty)) | Place::Ptr(Lval::Var(v, ty), _) => {
                let (obj, off) = self.home_of(Root::Scalar(*v, *ty), span)?;
                let o = self.cfa.tm.bv_const(u128::from(off), aw);
                Ok(self.make_ptr(obj, o))
            }
            Place::Scalar(Lval::Elem { arr, flat, .. })
            | Place::Ptr(Lval::Elem { arr, flat, .. }, _) => self.elem_ref(arr, *flat, span),
            Place::Scalar(Lval::Mem { ptr, .. }) | Place::Ptr(Lval::Mem { ptr, .. }, _) => Ok(*ptr),
            Place::Array(view) => {
                let lv = Lval::Elem {
                    arr: view.arr.clone(),
                    flat: view.base,
                    ty: view.access,
                };
                self.place_ref(&Place::Scalar(lv), span)
            }
            Place::Scalar(Lval::Bits { .. } | Lval::Field { .. }) => {
                self.error(span, "address of a bit-field")
            }
            // A member of a union: its first byte (numbered with its union, see
            // `declare_struct_object`).
            Place::Scalar(Lval::Bytes { bytes, .. }) | Place::Ptr(Lval::Bytes { bytes, .. }, _) => {
                self.place_ref(&Place::Scalar(bytes[0].clone()), span)
            }
            Place::Scalar(Lval::Tagged { .. }) | Place::Ptr(Lval::Tagged { .. }, _) => {
                self.unsupported(span, super::POINTER_UNION)
            }
            Place::Ptr(Lval::Bits { .. } | Lval::Field { .. }, _) => {
                Err(FrontendError::Internal("pointer bit-field".into()))
            }
            Place::Addr(..) => self.unsupported(
                span,
                "pointers to pointers (the address of a pointer member)",
            ),
            Place::Struct(view) => {
                let Some((rel, lv)) = first_cell(view) else {
                    return self
                        .unsupported(span, "a pointer to a structure whose members are all bit-fields or function pointers");
                };
                let p = self.place_ref(&Place::Scalar(lv), span)?;
                Ok(self.ptr_at(p, -(rel as i128)))
            }
            Place::Structs(sa) => {
                let zero = self.int_const(0, CInt::INT);
                let row = self.struct_index(sa, zero, span)?;
                self.place_ref(&row, span)
            }
        }
    }

    /// A pointer to the element at flat index `flat` of `arr`: cells in a row of its own
    /// object, scaled by the cell size; cells spread over the elements of an array of
    /// structures, the offset of each by index.
    fn elem_ref(
        &mut self,
        arr: &Rc<ArrayObj>,
        flat: TermId,
        span: Span,
    ) -> Result<TermId, FrontendError> {
        let aw = ADDRESS.width(self.dm());
        if let Some(at) = arr.at {
            return Ok(self.mem_elem_ptr(at, arr.elem, flat));
        }
        let (obj, base) = self.home_of(Root::Array(arr), span)?;
        let es = self.cell_size(arr.elem);
        let f = self.cfa.tm.resize(flat, aw, false);
        if !self.contiguous(arr, obj, base) {
            // A member of the elements of an array of structures: its offset by
            // element.
            let mut off = self.cfa.tm.bv_const(0, aw);
            for (i, v) in arr.elems.iter().enumerate().rev() {
                let Some(&(o, at)) = self.mem.home.get(v) else {
                    return self.unsupported(
                        span,
                        "a pointer into a part of an object that has no number",
                    );
                };
                if o != obj {
                    return Err(FrontendError::Internal("array cells in two objects".into()));
                }
                let k = self.cfa.tm.bv_const(i as u128, aw);
                let here = self.cfa.tm.eq(f, k);
                let at = self.cfa.tm.bv_const(u128::from(at), aw);
                off = self.cfa.tm.ite(here, at, off);
            }
            return Ok(self.make_ptr(obj, off));
        }
        let esc = self.cfa.tm.bv_const(u128::from(es), aw);
        let scaled = self.cfa.tm.mul(f, esc);
        let b = self.cfa.tm.bv_const(u128::from(base), aw);
        let off = self.cfa.tm.add(b, scaled);
        Ok(self.make_ptr(obj, off))
    }

    /// `p` moved by `k` bytes within its object (no check: `k` stays inside it).
    pub fn ptr_at(&mut self, p: TermId, k: i128) -> TermId {
        let aw = ADDRESS.width(self.dm());
        let obj = self.ptr_obj(p);
        let off = self.ptr_off(p);
        let kc = self.cfa.tm.bv_const_signed(k, aw);
        let moved = self.cfa.tm.add(off, kc);
        self.cfa.tm.concat(obj, moved)
    }

    /// The byte size of what a pointer to `pointee` steps over (`None`: not an object type nor
    /// `void`).
    pub fn step_of(&self, pointee: &CType) -> Option<u64> {
        match pointee {
            // GNU C: arithmetic on `void *` steps by one byte.
            CType::Void => Some(1),
            _ => pointee.size(self.dm()).filter(|&n| n > 0),
        }
    }

    /// `p + n·size` for a general pointer `p` (`n` an integer of any type): undefined
    /// behaviour (an UNKNOWN sink) when the result leaves `p`'s object (one past its end is
    /// allowed); arithmetic on a null or integer pointer is an UNKNOWN sink unless `n = 0`.
    pub fn ref_add(&mut self, p: TermId, n: RVal, size: u64, negate: bool) -> TermId {
        let aw = ADDRESS.width(self.dm());
        // Wide enough for offset + n·size without wrapping (sizes are far below 2^32).
        let nw = n.ty.width(self.dm());
        let wide = (nw.max(aw) + 34).min(128);
        let obj = self.ptr_obj(p);
        let off = self.ptr_off(p);
        let tm = &mut self.cfa.tm;
        let n_wide = tm.resize(n.t, wide, n.ty.signed);
        let sz = tm.bv_const(u128::from(size), wide);
        let delta = tm.mul(n_wide, sz);
        let delta = if negate { tm.neg(delta) } else { delta };
        let off_wide = tm.zext(off, wide);
        let new = tm.add(off_wide, delta);
        let zero_obj = tm.bv_const(0, OBJ_BITS);
        let is_int = tm.eq(obj, zero_obj);
        let zero_n = tm.bv_const(0, wide);
        let moves = tm.ne(delta, zero_n);
        let int_moves = tm.and(is_int, moves);
        self.sink_if(
            int_moves,
            "arithmetic on a null pointer or an integer converted to a pointer",
        );
        let limit = self.size_of_obj(obj, wide);
        let tm = &mut self.cfa.tm;
        let zero = tm.bv_const(0, wide);
        let neg = tm.slt(new, zero);
        let over = tm.sgt(new, limit);
        let out = tm.or(neg, over);
        let not_int = tm.not(is_int);
        let bad = tm.and(not_int, out);
        self.ub_check(None, bad, "pointer arithmetic outside the object");
        let low = self.cfa.tm.extract(new, aw - 1, 0);
        self.cfa.tm.concat(obj, low)
    }

    /// The size of the numbered object `obj` (a term of width `w`; 0 for no object).
    pub(super) fn size_of_obj(&mut self, obj: TermId, w: u32) -> TermId {
        let mut acc = self.cfa.tm.bv_const(0, w);
        for (i, o) in self.mem.objects.iter().enumerate() {
            let k = self.cfa.tm.bv_const(i as u128 + 1, OBJ_BITS);
            let c = self.cfa.tm.eq(obj, k);
            let s = self.cfa.tm.bv_const(u128::from(o.size), w);
            acc = self.cfa.tm.ite(c, s, acc);
        }
        acc
    }

    /// `p - q` for general pointers to objects of `size` bytes: undefined behaviour (an
    /// UNKNOWN sink) unless both point into the same object (or both are integers).
    pub fn ref_diff(&mut self, p: TermId, q: TermId, size: u64) -> RVal {
        let dm = self.dm();
        let aw = ADDRESS.width(dm);
        let (po, qo) = (self.ptr_obj(p), self.ptr_obj(q));
        let (pa, qa) = (self.ptr_off(p), self.ptr_off(q));
        let tm = &mut self.cfa.tm;
        let differ = tm.ne(po, qo);
        self.ub_check(
            None,
            differ,
            "difference of pointers into different objects",
        );
        let tm = &mut self.cfa.tm;
        let d = tm.sub(pa, qa);
        let s = tm.bv_const(u128::from(size), aw);
        let q = tm.sdiv(d, s);
        let ty = match dm {
            DataModel::Ilp32 => CInt::INT,
            DataModel::Lp64 => CInt::LONG,
        };
        RVal {
            t: self.cfa.tm.resize(q, ty.width(dm), true),
            ty,
        }
    }

    /// A comparison of two general pointers: `==`/`!=` compare object and offset (comparing
    /// an integer pointer other than null with an object's address, or one past the end of
    /// an object with another object, is an UNKNOWN sink: the answer is the compiler's
    /// layout); `<`, `<=`, `>`, `>=` need the same object (undefined behaviour otherwise).
    pub fn ref_compare(&mut self, op: BinOp, p: TermId, q: TermId) -> TermId {
        match op {
            BinOp::Eq => self.ref_equal(p, q),
            BinOp::Ne => {
                let e = self.ref_equal(p, q);
                self.cfa.tm.not(e)
            }
            _ => {
                let (po, qo) = (self.ptr_obj(p), self.ptr_obj(q));
                let (pa, qa) = (self.ptr_off(p), self.ptr_off(q));
                let differ = self.cfa.tm.ne(po, qo);
                self.ub_check(
                    None,
                    differ,
                    "relational comparison of pointers into different objects",
                );
                let tm = &mut self.cfa.tm;
                match op {
                    BinOp::Lt => tm.ult(pa, qa),
                    BinOp::Le => tm.ule(pa, qa),
                    BinOp::Gt => tm.ugt(pa, qa),
                    _ => tm.uge(pa, qa),
                }
            }
        }
    }

    /// `p == q` for general pointers, with the UNKNOWN sinks of comparisons whose answer is
    /// the compiler's layout (see [`Lower::ref_compare`]).
    fn ref_equal(&mut self, p: TermId, q: TermId) -> TermId {
        let aw = ADDRESS.width(self.dm());
        let (po, qo) = (self.ptr_obj(p), self.ptr_obj(q));
        let (pa, qa) = (self.ptr_off(p), self.ptr_off(q));
        let (ps, qs) = (self.size_of_obj(po, aw), self.size_of_obj(qo, aw));
        let zo = self.cfa.tm.bv_const(0, OBJ_BITS);
        let za = self.cfa.tm.bv_const(0, aw);
        let tm = &mut self.cfa.tm;
        let (p_obj, q_obj) = (tm.ne(po, zo), tm.ne(qo, zo));
        // An integer other than null against an object's address.
        let (p_addr, q_addr) = (tm.ne(pa, za), tm.ne(qa, za));
        let (p_int, q_int) = (tm.not(p_obj), tm.not(q_obj));
        let (pi, qi) = (tm.and(p_int, p_addr), tm.and(q_int, q_addr));
        let (a, b) = (tm.and(pi, q_obj), tm.and(qi, p_obj));
        let mixed = tm.or(a, b);
        // One past the end of an object against another object.
        let both = tm.and(p_obj, q_obj);
        let differ = tm.ne(po, qo);
        let (p_end, q_end) = (tm.eq(pa, ps), tm.eq(qa, qs));
        let ends = tm.or(p_end, q_end);
        let apart = tm.and(both, differ);
        let adjacent = tm.and(apart, ends);
        self.sink_if(
            mixed,
            "comparison of an integer converted to a pointer with an object's address",
        );
        self.sink_if(
            adjacent,
            "comparison of a pointer one past the end of an object with another object's address",
        );
        self.cfa.tm.eq(p, q)
    }

    /// The truth of a general pointer in a condition: not null.
    pub fn ref_truth(&mut self, p: TermId) -> RVal {
        let w = ptr_width(self.dm());
        let z = self.cfa.tm.bv_const(0, w);
        let nz = self.cfa.tm.ne(p, z);
        crate::frontend::arith::from_bool(&mut self.cfa.tm, nz)
    }

    /// A general pointer converted to an integer type: its address when it points to no object;
    /// an UNKNOWN sink when it points to one.
    pub fn ref_to_int(&mut self, p: TermId, to: CInt) -> RVal {
        let obj = self.ptr_obj(p);
        let zo = self.cfa.tm.bv_const(0, OBJ_BITS);
        let is_obj = self.cfa.tm.ne(obj, zo);
        self.sink_if(is_obj, "an object's address converted to an integer");
        let a = self.ptr_off(p);
        let r = RVal { t: a, ty: ADDRESS };
        RVal {
            t: self.convert(r, to),
            ty: to,
        }
    }
}
