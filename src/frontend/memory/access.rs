//! Accesses through general pointers: the candidate cells of an access type, the checked
//! dereference, reads and writes of the designated cell, structures reached through a pointer.

use crate::bv::TermId;
use crate::cfa::{DataModel, PVar};
use crate::frontend::builder::Lower;
use crate::frontend::repr::{
    field_key, ArrayObj, ArrayView, Cell, FieldKey, Lval, Part, Place, RVal, StructArray,
    StructView, ADDRESS, OBJ_BITS,
};
use crate::frontend::types::{CInt, CType, IntKind, StructRef};
use crate::frontend::FrontendError;
use lang_c::span::Span;

impl<'a> Lower<'a> {
    /// The structure `*p` designates for a general pointer `p` to a structure of type `def`:
    /// its members are cells at `p` plus their offsets, checked once (every scalar member must
    /// be a live cell of its type, every bit-field the cell of that member). Structures with
    /// function pointers or arrays of them are not reached through general pointers.
    pub fn mem_struct(
        &mut self,
        p: TermId,
        def: &StructRef,
        span: Span,
    ) -> Result<StructView, FrontendError> {
        let mut checks = Vec::new();
        let view = self.mem_struct_at(p, def, 0, &mut checks, span)?;
        let mut all = Vec::new();
        for (off, ty, field) in checks {
            let q = self.ptr_at(p, off as i128);
            all.push(match field {
                Some(key) => self.live_field(q, &key),
                None => self.live_cell(q, ty),
            });
        }
        let ok = self.cfa.tm.and_all(all);
        let bad = self.cfa.tm.not(ok);
        self.ub_check(
            None,
            bad,
            "access to a structure through a pointer to no live structure of its type (outside its object, dangling, or another type)",
        );
        Ok(view)
    }

    pub(super) fn mem_struct_at(
        &mut self,
        p: TermId,
        def: &StructRef,
        base: u64,
        checks: &mut Vec<(u64, CInt, Option<FieldKey>)>,
        span: Span,
    ) -> Result<StructView, FrontendError> {
        let mut parts = Vec::new();
        for (k, m) in def.0.members.iter().enumerate() {
            let at = base + m.offset;
            let cell = |lw: &mut Self, ty: CInt| Lval::Mem {
                ptr: lw.ptr_at(p, at as i128),
                ty,
            };
            let part = match (&m.ty, m.bits, m.ty.array_shape()) {
                (CType::Int(t), None, _) => {
                    checks.push((at, *t, None));
                    Part::Scalar(cell(self, *t))
                }
                (CType::Int(t), Some(width), _) => {
                    let key = field_key(def, k);
                    checks.push((at, *t, Some(key.clone())));
                    let ptr = self.ptr_at(p, at as i128);
                    Part::Scalar(Lval::Bits {
                        inner: Box::new(Lval::Field { ptr, key, ty: *t }),
                        width,
                    })
                }
                (CType::Pointer(q), None, _) if !matches!(**q, CType::Function(..)) => {
                    checks.push((at, CInt::PTR, None));
                    Part::Ptr(cell(self, CInt::PTR), (**q).clone())
                }
                (CType::Struct(inner), None, _) => Part::Struct(self.mem_struct_at(p, inner, at, checks, span)?),
                // An array of structures: each element checked where it is accessed.
                (CType::Array(..), None, _) if matches!(m.ty.array_dims().0, CType::Struct(_)) => {
                    let first = self.ptr_at(p, at as i128);
                    Part::Structs(self.mem_structs(first, &m.ty, span)?)
                }
                // An array of integers or of pointers to objects: each element checked
                // where it is accessed.
                (_, None, _) if array_elems(&m.ty).is_some() => {
                    let Some((e, pointee, Some(dims))) = array_elems(&m.ty) else {
                        return self.unsupported(span, "a flexible array member through a pointer");
                    };
                    let first = self.ptr_at(p, at as i128);
                    let first = self
                        .materialize(RVal {
                            t: first,
                            ty: CInt::PTR,
                        })
                        .t;
                    Part::Array(self.array_view_at(first, e, pointee, dims))
                }
                _ => {
                    return self.unsupported(
                        span,
                        format!(
                            "a general pointer to {} (its arrays of function pointers, unions, or function pointers)",
                            CType::Struct(def.clone()).describe()
                        ),
                    )
                }
            };
            parts.push(part);
        }
        Ok(StructView {
            def: def.clone(),
            parts,
        })
    }

    /// The array of structures of type `ty` whose first element a general pointer `first`
    /// designates (a member of a structure reached through a general pointer).
    fn mem_structs(
        &mut self,
        first: TermId,
        ty: &CType,
        span: Span,
    ) -> Result<StructArray, FrontendError> {
        let (CType::Struct(def), dims) = ty.array_dims() else {
            return Err(FrontendError::Internal("array of structures".into()));
        };
        let Some(dims) = dims.into_iter().collect::<Option<Vec<u64>>>() else {
            return self.unsupported(span, "a flexible array member through a pointer");
        };
        // Every member kind is one an element can be reached with (checked once here).
        self.mem_struct_at(first, def, 0, &mut Vec::new(), span)?;
        let first = self
            .materialize(RVal {
                t: first,
                ty: CInt::PTR,
            })
            .t;
        Ok(StructArray {
            def: def.clone(),
            dims,
            leaves: Vec::new(),
            at: Some(first),
        })
    }

    /// `sa[idx]` for an array of structures reached through a general pointer (`idx` checked
    /// against the first dimension): a structure checked as `*p` is, or an array of one
    /// dimension less.
    pub fn mem_structs_index(
        &mut self,
        sa: &StructArray,
        at: TermId,
        idx: TermId,
        span: Span,
    ) -> Result<Place, FrontendError> {
        let row: u64 = sa.dims[1..].iter().product::<u64>() * sa.def.0.size;
        let q = self.mem_row_ptr(at, idx, row);
        let q = self
            .materialize(RVal {
                t: q,
                ty: CInt::PTR,
            })
            .t;
        if sa.dims.len() == 1 {
            let p = self.non_null(q);
            return Ok(Place::Struct(self.mem_struct(p, &sa.def, span)?));
        }
        Ok(Place::Structs(StructArray {
            def: sa.def.clone(),
            dims: sa.dims[1..].to_vec(),
            leaves: Vec::new(),
            at: Some(q),
        }))
    }

    /// The places a pointer `p` to `ty` may designate: the cells of the numbered objects whose
    /// type has `ty`'s width (neither or both `_Bool`; a general pointer only as a general
    /// pointer), and, once the program views bytes (see [`MemPlan::bytes`](super::MemPlan)),
    /// the aligned runs of bytes of integer cells of other widths, and for one-byte accesses
    /// the padding bytes of structures. A constant `p` designates at most the places at its
    /// own object and offset (every other candidate's condition is false), so only those are
    /// listed: an access at a constant address costs the cells of its object, not of them all.
    pub(super) fn candidates(&mut self, p: TermId, ty: CInt) -> Vec<Cand> {
        let at = self.const_target(p);
        let dm = self.dm();
        let fits = |c: CInt| {
            if ty.kind == IntKind::Ptr || c.kind == IntKind::Ptr {
                return ty.kind == c.kind;
            }
            c == ty
                || (c.width(dm) == ty.width(dm)
                    && c.kind != IntKind::Bool
                    && ty.kind != IntKind::Bool)
        };
        let bytes = self.mem.plan.bytes && !matches!(ty.kind, IntKind::Ptr | IntKind::Bool);
        let mut out = Vec::new();
        for (i, o) in self.mem.objects.iter().enumerate() {
            let obj = i as u32 + 1;
            if at.is_some_and(|(a, _)| a != obj) {
                continue;
            }
            let here = |off: u64| at.is_none_or(|(_, a)| a == off);
            for c in o
                .cells
                .iter()
                .filter(|c| !c.opaque && here(c.offset) && fits(c.ty))
            {
                out.push(Cand {
                    obj,
                    offset: c.offset,
                    alive: o.alive,
                    target: Target::Cell(c.clone()),
                });
            }
            if bytes {
                self.byte_candidates(obj, o, ty, at.map(|(_, off)| off), &fits, &mut out);
            }
        }
        out
    }

    /// The object number and offset of a constant general pointer.
    fn const_target(&mut self, p: TermId) -> Option<(u32, u64)> {
        let (o, f) = (self.ptr_obj(p), self.ptr_off(p));
        let obj = u32::try_from(self.cfa.tm.const_value(o)?).ok()?;
        let off = u64::try_from(self.cfa.tm.const_value(f)?).ok()?;
        Some((obj, off))
    }

    /// The byte-view places of object `obj` for an access of `ty` (only the one at offset
    /// `only`, when given): every run of `ty`'s size at an offset aligned for `ty` whose bytes
    /// all belong to integer cells and that is not one cell `fits` accepts (that one is a
    /// [`Target::Cell`]); a run with a byte of a cell without a byte view (`_Bool`, pointer,
    /// opaque) is a [`Target::Opaque`]; for a one-byte access, also every byte of no cell.
    fn byte_candidates(
        &self,
        obj: u32,
        o: &super::MemObj,
        ty: CInt,
        only: Option<u64>,
        fits: &dyn Fn(CInt) -> bool,
        out: &mut Vec<Cand>,
    ) {
        let dm = self.dm();
        let size = ty.size(dm);
        let align = match (size, dm) {
            (8, DataModel::Ilp32) => 4,
            (n, _) => n,
        };
        // The bytes [lo, hi) the runs cover.
        let (lo, hi) = match only {
            Some(off) if off % align == 0 && off.saturating_add(size) <= o.size => {
                (off, off + size)
            }
            Some(_) => return,
            None => (0, o.size),
        };
        // Each byte's cell and its index in the cell; `Err(())` for a byte of a cell without a
        // byte view, `Ok(None)` for a byte of no cell.
        let mut owner: Vec<Result<Option<(usize, u32)>, ()>> = vec![Ok(None); (hi - lo) as usize];
        for (k, c) in o.cells.iter().enumerate() {
            let n = self.cell_size(c.ty);
            for b in c.offset.max(lo)..(c.offset + n).min(hi) {
                owner[(b - lo) as usize] =
                    if c.opaque || matches!(c.ty.kind, IntKind::Ptr | IntKind::Bool) {
                        Err(())
                    } else {
                        Ok(Some((k, (b - c.offset) as u32)))
                    };
            }
        }
        let mut off = lo;
        while off + size <= hi {
            let run = &owner[(off - lo) as usize..(off - lo + size) as usize];
            let whole = |r: &Result<Option<(usize, u32)>, ()>| matches!(r, Ok(Some(_)));
            if run.iter().any(|r| r.is_err()) {
                out.push(Cand {
                    obj,
                    offset: off,
                    alive: o.alive,
                    target: Target::Opaque,
                });
            } else if run.iter().all(whole) {
                let cells: Vec<(Cell, u32)> = run
                    .iter()
                    .filter_map(|r| r.ok().flatten())
                    .map(|(k, b)| (o.cells[k].clone(), b))
                    .collect();
                let one = &cells[0].0;
                let exact = cells[0].1 == 0
                    && cells.iter().all(|(c, _)| c.var == one.var)
                    && self.cell_size(one.ty) == size
                    && fits(one.ty);
                if !exact {
                    out.push(Cand {
                        obj,
                        offset: off,
                        alive: o.alive,
                        target: Target::Bytes(cells),
                    });
                }
            } else if size == 1 && matches!(run[0], Ok(None)) {
                out.push(Cand {
                    obj,
                    offset: off,
                    alive: o.alive,
                    target: Target::Padding,
                });
            }
            off += align;
        }
    }

    /// The condition "`p` designates this cell (of a live object)".
    pub(super) fn at_cell(&mut self, p: TermId, obj: u32, off: u64, alive: Option<PVar>) -> TermId {
        let aw = ADDRESS.width(self.dm());
        let o = self.cfa.tm.bv_const(u128::from(off), aw);
        let k = self.make_ptr(obj, o);
        let here = self.cfa.tm.eq(p, k);
        match alive {
            Some(a) => {
                let at = self.var_term(a);
                let one = self.cfa.tm.bv_const(1, 1);
                let live = self.cfa.tm.eq(at, one);
                self.cfa.tm.and(here, live)
            }
            None => here,
        }
    }

    /// The place `*p` designates for a general pointer `p` to `pointee`, with the checks of
    /// the dereference (an UNKNOWN sink when `p` is null or designates no live cell of its
    /// type).
    pub fn ref_place(
        &mut self,
        p: TermId,
        pointee: &CType,
        span: Span,
    ) -> Result<Place, FrontendError> {
        let pointee = &self.completed(pointee);
        match pointee {
            CType::Int(_) | CType::Struct(_) => {}
            CType::Pointer(q) if !matches!(**q, CType::Function(..)) => {}
            CType::Array(..) => return self.array_at(p, pointee, span),
            CType::Void => return self.error(span, "dereferencing a `void *` pointer"),
            other => {
                return self.unsupported(span, format!("a general pointer to {}", other.describe()))
            }
        }
        let p = self.non_null(p);
        let (ty, q) = match pointee {
            CType::Struct(def) => return Ok(Place::Struct(self.mem_struct(p, def, span)?)),
            CType::Pointer(q) => (CInt::PTR, Some((**q).clone())),
            CType::Int(t) => (*t, None),
            _ => return Err(FrontendError::Internal("pointee of a dereference".into())),
        };
        self.cell_checks(p, ty);
        let lv = Lval::Mem { ptr: p, ty };
        Ok(match q {
            Some(q) => Place::Ptr(lv, q),
            None => Place::Scalar(lv),
        })
    }

    /// `*p` for a general pointer `p` to an array (`int (*p)[4]`): the array whose first
    /// element `p` designates, each element checked where it is accessed.
    fn array_at(&mut self, p: TermId, ty: &CType, span: Span) -> Result<Place, FrontendError> {
        let (e, pointee, dims) = match array_elems(ty) {
            Some((e, pointee, Some(dims))) => (e, pointee, dims),
            Some(_) => {
                return self.unsupported(span, "a general pointer to an array of unknown size")
            }
            None => {
                return self.unsupported(span, format!("a general pointer to {}", ty.describe()))
            }
        };
        let p = self.non_null(p);
        Ok(Place::Array(self.array_view_at(p, e, pointee, dims)))
    }

    /// The array of dimensions `dims` of elements kept as `e` (pointing to `pointee`) whose
    /// first element the general pointer `first` designates.
    fn array_view_at(
        &mut self,
        first: TermId,
        e: CInt,
        pointee: Option<CType>,
        dims: Vec<u64>,
    ) -> ArrayView {
        ArrayView {
            arr: std::rc::Rc::new(ArrayObj {
                elems: Vec::new(),
                elem: e,
                pointee,
                at: Some(first),
            }),
            base: self.cfa.tm.bv_const(0, 64),
            dims,
            access: e,
        }
    }

    /// `p` kept in a temporary, after the check that it points to an object (null or an
    /// integer converted to a pointer is an UNKNOWN sink).
    pub fn non_null(&mut self, p: TermId) -> TermId {
        let p = self
            .materialize(RVal {
                t: p,
                ty: CInt::PTR,
            })
            .t;
        let obj = self.ptr_obj(p);
        let zo = self.cfa.tm.bv_const(0, OBJ_BITS);
        let null = self.cfa.tm.eq(obj, zo);
        self.ub_check(
            None,
            null,
            "dereference of a null pointer or an integer converted to a pointer",
        );
        p
    }

    /// The checks that `p` designates a live cell accessed as `ty` (bytes without a byte view
    /// and no live cell are UNKNOWN sinks).
    fn cell_checks(&mut self, p: TermId, ty: CInt) {
        let (ok, opaque) = self.cell_conditions(p, ty);
        self.sink_if(
            opaque,
            "access to the bytes of a pointer, function pointer, `_Bool` or bit-field through a pointer of another type (not modelled)",
        );
        let bad = self.cfa.tm.not(ok);
        self.ub_check(
            None,
            bad,
            "dereference of a pointer to no live object of its type (outside its object, dangling, misaligned, or of another type)",
        );
    }

    /// The general pointer to element `flat` of an array member whose first element (of type
    /// `elem`) is at general pointer `at`.
    pub fn mem_elem_ptr(&mut self, at: TermId, elem: CInt, flat: TermId) -> TermId {
        let es = self.cell_size(elem);
        self.mem_row_ptr(at, flat, es)
    }

    /// `at` moved by `flat` rows of `size` bytes (no check).
    fn mem_row_ptr(&mut self, at: TermId, flat: TermId, size: u64) -> TermId {
        let aw = ADDRESS.width(self.dm());
        let f = self.cfa.tm.resize(flat, aw, false);
        let esc = self.cfa.tm.bv_const(u128::from(size), aw);
        let k = self.cfa.tm.mul(f, esc);
        let obj = self.ptr_obj(at);
        let off = self.ptr_off(at);
        let moved = self.cfa.tm.add(off, k);
        self.cfa.tm.concat(obj, moved)
    }

    /// Element `flat` of an array member reached through a general pointer (see
    /// [`crate::frontend::repr::ArrayObj::at`]), accessed as `ty`, with the checks of a
    /// dereference.
    pub fn mem_elem(&mut self, at: TermId, elem: CInt, flat: TermId, ty: CInt) -> Lval {
        let p = self.mem_elem_ptr(at, elem, flat);
        let p = self.non_null(p);
        self.cell_checks(p, ty);
        Lval::Mem { ptr: p, ty }
    }

    /// The condition "`p` designates a live cell accessed as `ty`".
    fn live_cell(&mut self, p: TermId, ty: CInt) -> TermId {
        self.cell_conditions(p, ty).0
    }

    /// The conditions that `p` designates a live place of type `ty` that the model holds, and
    /// that it designates bytes the model does not represent ([`Target::Opaque`]).
    fn cell_conditions(&mut self, p: TermId, ty: CInt) -> (TermId, TermId) {
        let (mut live, mut opaque) = (Vec::new(), Vec::new());
        for c in self.candidates(p, ty) {
            let here = self.at_cell(p, c.obj, c.offset, c.alive);
            match c.target {
                Target::Opaque => opaque.push(here),
                _ => live.push(here),
            }
        }
        (self.cfa.tm.or_all(live), self.cfa.tm.or_all(opaque))
    }

    /// Reads the place a general pointer designates (checked by [`Lower::ref_place`]); a
    /// padding byte read is an UNKNOWN sink (its value is not modelled).
    pub fn mem_read(&mut self, p: TermId, ty: CInt) -> TermId {
        let (v, padding) = self.mem_read_parts(p, ty);
        self.sink_if(
            padding,
            "read of a padding byte (its value is not modelled)",
        );
        v
    }

    /// The value at the place a general pointer designates, and the condition that it is a
    /// padding byte (whose value is not modelled; the value is then 0).
    pub(super) fn mem_read_parts(&mut self, p: TermId, ty: CInt) -> (TermId, TermId) {
        let cands = self.candidates(p, ty);
        let w = ty.width(self.dm());
        let mut acc = self.cfa.tm.bv_const(0, w);
        let mut padding = Vec::new();
        for c in cands.iter().rev() {
            let here = self.at_cell(p, c.obj, c.offset, None);
            let v = match &c.target {
                Target::Cell(cell) => {
                    let v = self.var_term(cell.var);
                    self.cfa.tm.resize(v, w, cell.ty.signed)
                }
                Target::Bytes(bytes) => self.read_bytes(bytes),
                Target::Padding => {
                    padding.push(here);
                    continue;
                }
                Target::Opaque => continue,
            };
            acc = self.cfa.tm.ite(here, v, acc);
        }
        (acc, self.cfa.tm.or_all(padding))
    }

    /// The condition that a general pointer designates a padding byte.
    pub(super) fn at_padding(&mut self, p: TermId) -> TermId {
        let mut any = Vec::new();
        for c in self.candidates(p, CInt::CHAR) {
            if matches!(c.target, Target::Padding) {
                any.push(self.at_cell(p, c.obj, c.offset, None));
            }
        }
        self.cfa.tm.or_all(any)
    }

    /// The value of a run of bytes (little-endian: the first byte is the lowest).
    fn read_bytes(&mut self, bytes: &[(Cell, u32)]) -> TermId {
        let byte = |lw: &mut Self, (c, b): &(Cell, u32)| {
            let v = lw.var_term(c.var);
            lw.cfa.tm.extract(v, 8 * b + 7, 8 * b)
        };
        let Some((first, rest)) = bytes.split_first() else {
            return self.cfa.tm.bv_const(0, 8);
        };
        let mut acc = byte(self, first);
        for part in rest {
            let hi = byte(self, part);
            acc = self.cfa.tm.concat(hi, acc);
        }
        acc
    }

    /// The pointer `p` and the value `t` (of type `ty`) of a write through a general pointer,
    /// kept in temporaries: the write assigns several cells, and each may be read by them.
    fn kept_for_write(&mut self, p: TermId, ty: CInt, t: TermId) -> (TermId, TermId) {
        let p = self
            .materialize(RVal {
                t: p,
                ty: CInt::PTR,
            })
            .t;
        (p, self.materialize(RVal { t, ty }).t)
    }

    /// Writes `t` (of `ty`'s width) to the place a general pointer designates.
    pub fn mem_write(&mut self, p: TermId, ty: CInt, t: TermId) {
        let (p, t) = self.kept_for_write(p, ty, t);
        let cands = self.candidates(p, ty);
        let read_only = |c: &Cand, ro: &std::collections::HashSet<PVar>| match &c.target {
            Target::Cell(cell) => ro.contains(&cell.var),
            Target::Bytes(bytes) => bytes.iter().any(|(cell, _)| ro.contains(&cell.var)),
            Target::Padding | Target::Opaque => false,
        };
        let fixed: Vec<(u32, u64)> = cands
            .iter()
            .filter(|c| read_only(c, &self.mem.read_only))
            .map(|c| (c.obj, c.offset))
            .collect();
        let mut literal = Vec::new();
        for (obj, off) in fixed {
            literal.push(self.at_cell(p, obj, off, None));
        }
        let literal = self.cfa.tm.or_all(literal);
        self.ub_check(None, literal, "write to a string literal");
        // Each cell's new value: its old value, or, where `p` designates it (or bytes of it),
        // the value written.
        let mut cells: Vec<(PVar, TermId)> = Vec::new();
        for c in cands {
            if read_only(&c, &self.mem.read_only) {
                continue;
            }
            let here = self.at_cell(p, c.obj, c.offset, None);
            match c.target {
                Target::Cell(cell) => {
                    let w = self.cfa.var(cell.var).ty.width;
                    let v = self.cfa.tm.resize(t, w, ty.signed);
                    update(self, &mut cells, cell.var, here, |_, _| v);
                }
                Target::Bytes(bytes) => {
                    for (i, (cell, b)) in bytes.iter().enumerate() {
                        let i = i as u32;
                        let byte = self.cfa.tm.extract(t, 8 * i + 7, 8 * i);
                        update(self, &mut cells, cell.var, here, |lw, old| {
                            lw.with_byte(old, *b, byte)
                        });
                    }
                }
                Target::Padding | Target::Opaque => {}
            }
        }
        for (v, new) in cells {
            self.assign(v, new);
        }
    }

    /// The cells of the bit-field `key` in the numbered objects: object, offset, lifetime flag
    /// and variable.
    fn field_cells(&self, key: &FieldKey) -> Vec<(u32, u64, Option<PVar>, PVar)> {
        let mut out = Vec::new();
        for (i, o) in self.mem.objects.iter().enumerate() {
            for c in o.cells.iter().filter(|c| c.field.as_ref() == Some(key)) {
                out.push((i as u32 + 1, c.offset, o.alive, c.var));
            }
        }
        out
    }

    /// The condition that `p` designates a live cell of the bit-field `key`.
    fn live_field(&mut self, p: TermId, key: &FieldKey) -> TermId {
        let mut any = Vec::new();
        for (obj, off, alive, _) in self.field_cells(key) {
            any.push(self.at_cell(p, obj, off, alive));
        }
        self.cfa.tm.or_all(any)
    }

    /// Reads the cell of the bit-field `key` (of declared type `ty`) that `p` designates
    /// (checked by [`Lower::mem_struct`]).
    pub fn field_read(&mut self, p: TermId, key: &FieldKey, ty: CInt) -> TermId {
        let mut acc = self.cfa.tm.bv_const(0, ty.width(self.dm()));
        for (obj, off, _, var) in self.field_cells(key).into_iter().rev() {
            let here = self.at_cell(p, obj, off, None);
            let v = self.var_term(var);
            acc = self.cfa.tm.ite(here, v, acc);
        }
        acc
    }

    /// Writes `t` (of the bit-field's declared type, within its width) to the cell of the
    /// bit-field `key` that `p` designates.
    pub fn field_write(&mut self, p: TermId, key: &FieldKey, ty: CInt, t: TermId) {
        let (p, t) = self.kept_for_write(p, ty, t);
        let cells = self.field_cells(key);
        let mut news = Vec::new();
        for (obj, off, _, var) in cells {
            let here = self.at_cell(p, obj, off, None);
            let old = self.var_term(var);
            news.push((var, self.cfa.tm.ite(here, t, old)));
        }
        for (var, new) in news {
            self.assign(var, new);
        }
    }

    /// A whole structure is stored to `dst`. The bytes under its padding take unspecified
    /// values (C11 6.2.6.1p6; gcc copies the source's padding, whose value the model does not
    /// keep), which matters where other members can read them: in a union (an UNKNOWN sink
    /// when the structure has padding), and where `dst` is reached through a general pointer
    /// and the program views bytes ([`super::MemPlan::bytes`]), so that its padding may lie
    /// over cells of another object (a structure laid over an `int` array: an UNKNOWN sink
    /// unless every padding byte of the type is padding of the object there).
    pub fn padding_stored(&mut self, dst: &StructView) {
        let first = super::first_cell(dst);
        let through_pointer = match &first {
            Some((_, Lval::Mem { .. })) => true,
            Some((_, Lval::Elem { arr, .. })) => arr.at.is_some(),
            _ => false,
        };
        let in_union = matches!(first, Some((_, Lval::Bytes { .. })));
        if !(in_union || (through_pointer && self.mem.plan.bytes)) {
            return;
        }
        let padding = padding_bytes(&dst.def, self.dm());
        if padding.is_empty() {
            return;
        }
        let (rel, ptr) = match first {
            Some((_, Lval::Bytes { .. })) => {
                let yes = self.cfa.tm.tru();
                self.sink_if(
                    yes,
                    "a structure with padding stored into a union (the union's bytes under its padding become unspecified)",
                );
                return;
            }
            Some((rel, Lval::Mem { ptr, .. })) => (rel, ptr),
            Some((rel, Lval::Elem { arr, flat, .. })) => match arr.at {
                Some(at) => (rel, self.mem_elem_ptr(at, arr.elem, flat)),
                None => return,
            },
            _ => return,
        };
        let p = self.ptr_at(ptr, -(rel as i128));
        let mut over_cells = Vec::new();
        for off in padding {
            let q = self.ptr_at(p, off as i128);
            let pad = self.at_padding(q);
            over_cells.push(self.cfa.tm.not(pad));
        }
        let bad = self.cfa.tm.or_all(over_cells);
        self.sink_if(
            bad,
            "a structure stored through a pointer over bytes that are not padding (its padding leaves them unspecified)",
        );
    }

    /// `old` with its byte `b` replaced by `byte`.
    fn with_byte(&mut self, old: TermId, b: u32, byte: TermId) -> TermId {
        let w = self.cfa.tm.width(old);
        let mut v = byte;
        if b > 0 {
            let lo = self.cfa.tm.extract(old, 8 * b - 1, 0);
            v = self.cfa.tm.concat(v, lo);
        }
        if 8 * b + 8 < w {
            let hi = self.cfa.tm.extract(old, w - 1, 8 * b + 8);
            v = self.cfa.tm.concat(hi, v);
        }
        v
    }
}

/// Where an access may land (see [`Lower::candidates`]).
#[derive(Clone, Debug)]
pub(super) enum Target {
    /// A cell of the access type's width.
    Cell(Cell),
    /// Bytes of cells of other widths, the access's lowest byte first: each with its index in
    /// its cell.
    Bytes(Vec<(Cell, u32)>),
    /// A byte of no cell (a structure's padding): a write changes nothing, a read is not
    /// modelled.
    Padding,
    /// Bytes of a cell without a byte view (a pointer, a `_Bool`, a function pointer, a
    /// bit-field): not modelled, an UNKNOWN sink.
    Opaque,
}

/// A place an access may designate: the object's number, the offset, the object's lifetime
/// flag and what is there.
#[derive(Clone, Debug)]
pub(super) struct Cand {
    obj: u32,
    offset: u64,
    alive: Option<PVar>,
    target: Target,
}

/// Record that cell `v` becomes `value(lw, current)` where `here` holds and stays `current`
/// otherwise, `current` being its value after the updates recorded so far.
fn update(
    lw: &mut Lower,
    cells: &mut Vec<(PVar, TermId)>,
    v: PVar,
    here: TermId,
    value: impl FnOnce(&mut Lower, TermId) -> TermId,
) {
    let i = match cells.iter().position(|(u, _)| *u == v) {
        Some(i) => i,
        None => {
            let t = lw.var_term(v);
            cells.push((v, t));
            cells.len() - 1
        }
    };
    let old = cells[i].1;
    let new = value(lw, old);
    cells[i].1 = lw.cfa.tm.ite(here, new, old);
}

/// For an array of integers or of pointers to objects (not functions): the type its elements
/// are kept as, what they point to, and its dimensions (`None` if one is unknown).
fn array_elems(ty: &CType) -> Option<(CInt, Option<CType>, Option<Vec<u64>>)> {
    let (e, pointee, dims) = match (
        ty.array_shape(),
        crate::frontend::array::pointer_array_shape(ty),
    ) {
        (Some((e, dims)), _) => (e, None, dims),
        (None, Some((q, dims))) if !matches!(q, CType::Function(..)) => (CInt::PTR, Some(q), dims),
        _ => return None,
    };
    Some((e, pointee, dims.into_iter().collect()))
}

/// The offsets of the padding bytes of structure type `def`: bytes no member covers (a
/// nested structure's and each element of an array of structures' own padding included; a
/// bit-field counts as covering its declared type's bytes, a union member all its bytes).
fn padding_bytes(def: &StructRef, dm: DataModel) -> Vec<u64> {
    let mut covered = vec![false; def.0.size as usize];
    cover(def, 0, dm, &mut covered);
    (0..def.0.size).filter(|&k| !covered[k as usize]).collect()
}

fn cover(def: &StructRef, base: u64, dm: DataModel, covered: &mut [bool]) {
    for m in &def.0.members {
        let at = base + m.offset;
        match m.ty.array_dims() {
            (CType::Struct(inner), dims) if !inner.0.union => {
                let n: u64 = dims.iter().map(|d| d.unwrap_or(0)).product();
                for e in 0..n {
                    cover(inner, at + e * inner.0.size, dm, covered);
                }
            }
            _ => {
                let size = m.ty.size(dm).unwrap_or(0);
                let end = (at + size).min(covered.len() as u64);
                for b in at.min(end)..end {
                    covered[b as usize] = true;
                }
            }
        }
    }
}
