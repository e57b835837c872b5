//! General pointers: an object and a byte offset, the memory model of programs without heap.
//!
//! Every object of such a program is a global, a local or a parameter, so the objects are
//! finitely many. A *general pointer* is a value of [`CInt::PTR`]: its high [`OBJ_BITS`] bits
//! number an object (0: no object) and its low bits, of the data model's pointer width, hold
//! the byte offset in that object — or, without an object, an address (null is 0; an integer
//! converted to a pointer keeps its value). This is the encoding CBMC and ESBMC use.
//!
//! The front end keeps the cheap encodings where they are exact (a pointer bound for good to
//! the object it is initialised with, an address-only pointer; see [`super::pointer`]); a
//! pointer variable is general when the program assigns it an object's address after its
//! declaration, moves it, or takes its address. Which variables those are is learnt by
//! lowering: an operation that needs a general pointer where the declaration made another
//! kind records the declaration in a [`MemPlan`] and the unit is lowered again with the
//! larger plan (as is an object whose address first became a general pointer after a
//! dereference that could reach it had been lowered), until nothing new is learnt.
//!
//! An object gets its number when its address first becomes a general pointer. Its *cells*
//! are its scalar variables at their byte offsets (a scalar: one cell; an integer array: one
//! per element). `*p` is exact when `p` holds the offset of a cell of the object whose type
//! has the access type's width (signed and unsigned variants, as [`super::pointer`]); the
//! read is an `ite` over the candidate cells, the write assigns every candidate cell
//! `ite(p = cell, value, cell)`. What C leaves undefined ends in an UNKNOWN sink: a null or
//! integer pointer dereferenced, an offset outside the object or of no cell, an object whose
//! lifetime ended (each local that may be pointed to has a flag set at its declaration and
//! cleared when its block ends, by falling off its end or by `return`, `break`, `continue`),
//! arithmetic leaving the object (one past the end is allowed), relational comparison and
//! difference of pointers into different objects. An access through a pointer to a type of
//! another width (a byte view) is an UNKNOWN sink too (not undefined: not modelled). An
//! object's address converted to an integer is an UNKNOWN sink (its value would be the
//! compiler's layout).

use super::arith::BinOp;
use super::array::ArrayObj;
use super::builder::{Lower, RVal};
use super::expr::Val;
use super::lval::Lval;
use super::pointer::{Place, ADDRESS};
use super::structs::{Part, StructArray, StructView};
use super::types::StructRef;
use super::types::{CInt, CType, IntKind};
use super::FrontendError;
use crate::bv::TermId;
use crate::cfa::{DataModel, PVar, VarKind};
use lang_c::span::Span;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The bits of a general pointer that number its object.
pub const OBJ_BITS: u32 = 16;

/// The width of a general pointer under a data model.
pub fn ptr_width(dm: DataModel) -> u32 {
    ADDRESS.width(dm) + OBJ_BITS
}

/// What an earlier lowering of the unit learnt: the pointer declarations that must be general
/// and the objects whose address becomes a general pointer (both by [`Lower::decl_key`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemPlan {
    pub general: HashSet<String>,
    pub exposed: HashSet<String>,
}

impl MemPlan {
    /// Whether `other` adds nothing to `self`.
    pub fn covers(&self, other: &MemPlan) -> bool {
        other.general.is_subset(&self.general) && other.exposed.is_subset(&self.exposed)
    }

    /// Adds what `other` knows.
    pub fn merge(&mut self, other: &MemPlan) {
        self.general.extend(other.general.iter().cloned());
        self.exposed.extend(other.exposed.iter().cloned());
    }
}

/// A scalar of a numbered object.
#[derive(Clone, Debug)]
struct Cell {
    offset: u64,
    var: PVar,
    ty: CInt,
}

/// A numbered object: its cells, its size and the flag of its lifetime (locals only).
#[derive(Debug)]
struct MemObj {
    cells: Vec<Cell>,
    size: u64,
    alive: Option<PVar>,
}

/// The numbered objects of a lowering.
#[derive(Debug, Default)]
pub struct Memory {
    objects: Vec<MemObj>,
    /// Each cell's object number and offset.
    home: HashMap<PVar, (u32, u64)>,
    /// The plan this lowering follows and what it learnt beyond it.
    pub plan: MemPlan,
    pub learnt: MemPlan,
    /// The objects with a lifetime flag declared in each open block, innermost last.
    pub blocks: Vec<Vec<u32>>,
}

impl Memory {
    /// No numbered objects yet, following `plan`.
    pub fn new(plan: MemPlan) -> Memory {
        Memory {
            plan,
            ..Default::default()
        }
    }
}

impl<'a> Lower<'a> {
    /// The key of the declaration of the object `v` belongs to (its name and position; the
    /// same in every lowering of the unit and for every inlined instance).
    pub fn decl_key(&self, v: PVar) -> String {
        let info = self.cfa.var(v);
        // `a[1]`, `s.f`, `a[0].g#2`: the declared object `a` or `s`.
        let name = info.name.split(['#', '[', '.']).next().unwrap_or("");
        match &info.pos {
            Some(p) => format!("{name}@{}:{}", p.line, p.col),
            None => name.to_string(),
        }
    }

    /// Records that the pointer variable `v` must be general and asks for another lowering.
    pub fn needs_general<T>(&mut self, v: PVar) -> Result<T, FrontendError> {
        let k = self.decl_key(v);
        if self.mem.plan.general.contains(&k) {
            return Err(FrontendError::Internal(format!(
                "pointer `{k}` is general already"
            )));
        }
        self.mem.learnt.general.insert(k);
        Err(FrontendError::Relower)
    }

    /// Records that the pointer declared with `key` (bound to an object at its declaration)
    /// must be general and asks for another lowering.
    pub fn needs_general_key<T>(&mut self, key: String) -> Result<T, FrontendError> {
        if self.mem.plan.general.contains(&key) {
            return Err(FrontendError::Internal(format!(
                "pointer `{key}` is general already"
            )));
        }
        self.mem.learnt.general.insert(key);
        Err(FrontendError::Relower)
    }

    /// Numbers the object declared with the variables `vars` now if the plan says its address
    /// becomes a general pointer (at its declaration, so that its lifetime flag is set there).
    pub fn declare_object(&mut self, vars: &[PVar], elem: Option<&Rc<ArrayObj>>) {
        let Some(&first) = vars.first() else { return };
        if self.mem.home.contains_key(&first)
            || !self.mem.plan.exposed.contains(&self.decl_key(first))
        {
            return;
        }
        match elem {
            Some(arr) => self.number_array(arr),
            None => self.number_scalar(first),
        };
    }

    fn number(&mut self, cells: Vec<Cell>, size: u64) -> u32 {
        let id = self.mem.objects.len() as u32 + 1;
        let first = cells.first().map(|c| c.var);
        for c in &cells {
            self.mem.home.insert(c.var, (id, c.offset));
        }
        let local = first
            .is_some_and(|v| matches!(self.cfa.var(v).kind, VarKind::Local | VarKind::Parameter));
        let alive = if local && self.fctx.is_some() {
            let name = format!("{}#alive", self.cfa.var(first.unwrap_or(PVar(0))).name);
            let a = self.new_var(&name, CInt::BOOL, VarKind::Temporary, None);
            let one = self.cfa.tm.bv_const(1, 1);
            self.assign(a, one);
            if let Some(b) = self.mem.blocks.last_mut() {
                b.push(id);
            }
            Some(a)
        } else {
            None
        };
        if let Some(v) = first {
            let k = self.decl_key(v);
            if !self.mem.plan.exposed.contains(&k) {
                self.mem.learnt.exposed.insert(k);
            }
        }
        self.mem.objects.push(MemObj { cells, size, alive });
        id
    }

    fn number_scalar(&mut self, v: PVar) -> u32 {
        let ty = self.var_ctype(v);
        let size = if ty.kind == IntKind::Ptr {
            ADDRESS.size(self.dm())
        } else {
            ty.size(self.dm())
        };
        self.number(
            vec![Cell {
                offset: 0,
                var: v,
                ty,
            }],
            size,
        )
    }

    fn number_array(&mut self, arr: &Rc<ArrayObj>) -> u32 {
        let es = self.cell_size(arr.elem);
        let cells = arr
            .elems
            .iter()
            .enumerate()
            .map(|(i, &var)| Cell {
                offset: i as u64 * es,
                var,
                ty: arr.elem,
            })
            .collect();
        self.number(cells, es * arr.elems.len() as u64)
    }

    /// `sizeof` of what a cell of type `t` holds.
    fn cell_size(&self, t: CInt) -> u64 {
        if t.kind == IntKind::Ptr {
            ADDRESS.size(self.dm())
        } else {
            t.size(self.dm())
        }
    }

    /// The C integer type of a scalar variable (a general pointer for the pointer width plus
    /// the object bits).
    fn var_ctype(&self, v: PVar) -> CInt {
        let it = self.cfa.var(v).ty;
        if it.width == ptr_width(self.dm()) && !it.signed && it.width != 64 {
            return CInt::PTR;
        }
        [
            IntKind::Bool,
            IntKind::Char,
            IntKind::Short,
            IntKind::Int,
            IntKind::Long,
            IntKind::LongLong,
        ]
        .into_iter()
        .map(|k| CInt::new(k, it.signed))
        .find(|t| t.width(self.dm()) == it.width)
        .unwrap_or(CInt::PTR)
    }

    /// The object and offset of a cell, numbering its object when this is the first time (in
    /// a lowering the plan then repeats, since its declaration did not number it: a member of
    /// a structure is numbered as a scalar here, but the next lowering numbers the structure).
    fn home_of(
        &mut self,
        v: PVar,
        arr: Option<&Rc<ArrayObj>>,
        span: Span,
    ) -> Result<(u32, u64), FrontendError> {
        if let Some(&h) = self.mem.home.get(&v) {
            return Ok(h);
        }
        if self.mem.plan.exposed.contains(&self.decl_key(v)) {
            return self.unsupported(
                span,
                "a pointer to an object that is not a variable (a temporary)",
            );
        }
        match arr {
            Some(a) => {
                self.number_array(a);
            }
            None => {
                self.number_scalar(v);
            }
        }
        Ok(self.mem.home[&v])
    }

    /// A general pointer of object `obj` at offset `off` (a term of the pointer width).
    fn make_ptr(&mut self, obj: u32, off: TermId) -> TermId {
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

    /// The general pointer for a pointer value `v` (converted to a pointer type).
    pub fn general_pointer(&mut self, v: Val, span: Span) -> Result<RVal, FrontendError> {
        let aw = ADDRESS.width(self.dm());
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
        let _ = aw;
        Ok(RVal { t, ty: CInt::PTR })
    }

    /// The general pointer to what a place designates.
    pub fn place_ref(&mut self, place: &Place, span: Span) -> Result<TermId, FrontendError> {
        let aw = ADDRESS.width(self.dm());
        match place {
            Place::Scalar(Lval::Var(v, _)) | Place::Ptr(Lval::Var(v, _), _) => {
                let (obj, off) = self.home_of(*v, None, span)?;
                let o = self.cfa.tm.bv_const(u128::from(off), aw);
                Ok(self.make_ptr(obj, o))
            }
            Place::Scalar(Lval::Elem { arr, flat, .. })
            | Place::Ptr(Lval::Elem { arr, flat, .. }, _) => {
                let Some(&first) = arr.elems.first() else {
                    return self.unsupported(span, "a pointer into an empty array");
                };
                let (obj, base) = self.home_of(first, Some(arr), span)?;
                let es = self.cell_size(arr.elem);
                let contiguous = arr
                    .elems
                    .iter()
                    .enumerate()
                    .all(|(i, v)| self.mem.home.get(v) == Some(&(obj, base + i as u64 * es)));
                let f = self.cfa.tm.resize(*flat, aw, false);
                if !contiguous {
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
                            return Err(FrontendError::Internal(
                                "array cells in two objects".into(),
                            ));
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
            Place::Scalar(Lval::Mem { ptr, .. }) | Place::Ptr(Lval::Mem { ptr, .. }, _) => Ok(*ptr),
            Place::Array(view) => {
                let lv = Lval::Elem {
                    arr: view.arr.clone(),
                    flat: view.base,
                    ty: view.access,
                };
                self.place_ref(&Place::Scalar(lv), span)
            }
            Place::Scalar(Lval::Bits { .. }) => self.error(span, "address of a bit-field"),
            Place::Ptr(Lval::Bits { .. }, _) => {
                Err(FrontendError::Internal("pointer bit-field".into()))
            }
            Place::Addr(_) => self.unsupported(
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

    /// `p` moved by `k` bytes within its object (no check: `k` stays inside it).
    fn ptr_at(&mut self, p: TermId, k: i128) -> TermId {
        let aw = ADDRESS.width(self.dm());
        let obj = self.ptr_obj(p);
        let off = self.ptr_off(p);
        let kc = self.cfa.tm.bv_const_signed(k, aw);
        let moved = self.cfa.tm.add(off, kc);
        self.cfa.tm.concat(obj, moved)
    }

    /// The cells of a structure object (or of one of its elements) at byte offset `base`:
    /// its scalar members, pointer members and the elements of its array members (bit-fields
    /// and function pointers are no cells: no pointer designates them).
    fn struct_cells(
        &mut self,
        view: &StructView,
        base: u64,
        out: &mut Vec<Cell>,
        span: Span,
    ) -> Result<(), FrontendError> {
        let es = |lw: &Self, t: CInt| lw.cell_size(t);
        for (m, p) in view.def.0.members.iter().zip(&view.parts) {
            let at = base + m.offset;
            match p {
                Part::Scalar(lv) | Part::Ptr(lv, _) if m.bits.is_none() => {
                    if let Some(var) = lval_var(lv, &self.cfa.tm) {
                        out.push(Cell {
                            offset: at,
                            var,
                            ty: lv.ty(),
                        });
                    }
                }
                Part::Array(v) => {
                    let Some(b) = self.cfa.tm.const_value(v.base) else {
                        continue;
                    };
                    let n: u64 = v.dims.iter().product();
                    let size = es(self, v.arr.elem);
                    for i in 0..n {
                        if let Some(&var) = v.arr.elems.get((b as u64 + i) as usize) {
                            out.push(Cell {
                                offset: at + i * size,
                                var,
                                ty: v.arr.elem,
                            });
                        }
                    }
                }
                Part::Struct(v) => self.struct_cells(v, at, out, span)?,
                Part::Structs(sa) => self.structs_cells(sa, at, out, span)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The cells of an array of structures at byte offset `base`.
    fn structs_cells(
        &mut self,
        sa: &StructArray,
        base: u64,
        out: &mut Vec<Cell>,
        span: Span,
    ) -> Result<(), FrontendError> {
        let Some(&n) = sa.dims.first() else {
            return Ok(());
        };
        let row: u64 = sa.dims[1..].iter().product::<u64>() * sa.def.0.size;
        for e in 0..n {
            let i = self.int_const(e as i128, CInt::INT);
            match self.struct_index(sa, i, span)? {
                Place::Struct(v) => self.struct_cells(&v, base + e * row, out, span)?,
                Place::Structs(inner) => self.structs_cells(&inner, base + e * row, out, span)?,
                _ => {
                    return Err(FrontendError::Internal(
                        "element of an array of structures".into(),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Numbers a structure object (or an array of them) now if the plan says its address
    /// becomes a general pointer.
    pub fn declare_struct_object(
        &mut self,
        whole: &Place,
        span: Span,
    ) -> Result<(), FrontendError> {
        let mut cells = Vec::new();
        let size = match whole {
            Place::Struct(v) => {
                self.struct_cells(v, 0, &mut cells, span)?;
                v.def.0.size
            }
            Place::Structs(sa) => {
                self.structs_cells(sa, 0, &mut cells, span)?;
                sa.dims.iter().product::<u64>() * sa.def.0.size
            }
            _ => return Ok(()),
        };
        let Some(first) = cells.first().map(|c| c.var) else {
            return Ok(());
        };
        if self.mem.home.contains_key(&first)
            || !self.mem.plan.exposed.contains(&self.decl_key(first))
        {
            return Ok(());
        }
        self.number(cells, size);
        Ok(())
    }

    /// The structure `*p` designates for a general pointer `p` to a structure of type `def`:
    /// its members are cells at `p` plus their offsets, checked once (every scalar member must
    /// be a live cell of its type). Structures with bit-fields, array members or function
    /// pointers are not reached through general pointers.
    fn mem_struct(
        &mut self,
        p: TermId,
        def: &StructRef,
        span: Span,
    ) -> Result<StructView, FrontendError> {
        let mut checks = Vec::new();
        let view = self.mem_struct_at(p, def, 0, &mut checks, span)?;
        let mut all = Vec::new();
        for (off, ty) in checks {
            let q = self.ptr_at(p, off as i128);
            let mut one = Vec::new();
            for (k, c, alive) in self.candidates(ty) {
                one.push(self.at_cell(q, k, c.offset, alive));
            }
            all.push(self.cfa.tm.or_all(one));
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

    fn mem_struct_at(
        &mut self,
        p: TermId,
        def: &StructRef,
        base: u64,
        checks: &mut Vec<(u64, CInt)>,
        span: Span,
    ) -> Result<StructView, FrontendError> {
        let mut parts = Vec::new();
        for m in &def.0.members {
            let at = base + m.offset;
            let cell = |lw: &mut Self, ty: CInt| Lval::Mem {
                ptr: lw.ptr_at(p, at as i128),
                ty,
            };
            let part = match (&m.ty, m.bits) {
                (CType::Int(t), None) => {
                    checks.push((at, *t));
                    Part::Scalar(cell(self, *t))
                }
                (CType::Pointer(q), None) if !matches!(**q, CType::Function(..)) => {
                    checks.push((at, CInt::PTR));
                    Part::Ptr(cell(self, CInt::PTR), (**q).clone())
                }
                (CType::Struct(inner), None) => Part::Struct(self.mem_struct_at(p, inner, at, checks, span)?),
                _ => {
                    return self.unsupported(
                        span,
                        format!(
                            "a general pointer to {} (its bit-fields, array members or function pointers)",
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

    /// The byte size of what a pointer to `pointee` steps over (`None`: not an object type).
    pub fn step_of(&self, pointee: &CType) -> Option<u64> {
        pointee.size(self.dm()).filter(|&n| n > 0)
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
    fn size_of_obj(&mut self, obj: TermId, w: u32) -> TermId {
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
        let aw = ADDRESS.width(self.dm());
        let (po, qo) = (self.ptr_obj(p), self.ptr_obj(q));
        let (pa, qa) = (self.ptr_off(p), self.ptr_off(q));
        let zo = self.cfa.tm.bv_const(0, OBJ_BITS);
        let za = self.cfa.tm.bv_const(0, aw);
        let tm = &mut self.cfa.tm;
        let p_int = tm.eq(po, zo);
        let q_int = tm.eq(qo, zo);
        let differ = tm.ne(po, qo);
        match op {
            BinOp::Eq | BinOp::Ne => {
                let p_addr = tm.ne(pa, za);
                let q_addr = tm.ne(qa, za);
                let pi = tm.and(p_int, p_addr);
                let qi = tm.and(q_int, q_addr);
                let pn = tm.not(p_int);
                let qn = tm.not(q_int);
                let a = tm.and(pi, qn);
                let b = tm.and(qi, pn);
                let mixed = tm.or(a, b);
                self.sink_if(
                    mixed,
                    "comparison of an integer converted to a pointer with an object's address",
                );
                let ps = self.size_of_obj(po, aw);
                let qs = self.size_of_obj(qo, aw);
                let tm = &mut self.cfa.tm;
                let p_end = tm.eq(pa, ps);
                let q_end = tm.eq(qa, qs);
                let pn = tm.not(p_int);
                let qn = tm.not(q_int);
                let both = tm.and(pn, qn);
                let ends = tm.or(p_end, q_end);
                let x = tm.and(both, differ);
                let adj = tm.and(x, ends);
                self.sink_if(adj, "comparison of a pointer one past the end of an object with another object's address");
                let e = self.cfa.tm.eq(p, q);
                if op == BinOp::Eq {
                    e
                } else {
                    self.cfa.tm.not(e)
                }
            }
            _ => {
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

    /// The truth of a general pointer in a condition: not null.
    pub fn ref_truth(&mut self, p: TermId) -> RVal {
        let w = ptr_width(self.dm());
        let z = self.cfa.tm.bv_const(0, w);
        let nz = self.cfa.tm.ne(p, z);
        super::arith::from_bool(&mut self.cfa.tm, nz)
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

    /// The cells a pointer to `ty` may designate: those of the numbered objects whose type has
    /// `ty`'s width (neither or both `_Bool`; a general pointer only as a general pointer).
    fn candidates(&self, ty: CInt) -> Vec<(u32, Cell, Option<PVar>)> {
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
        let mut out = Vec::new();
        for (i, o) in self.mem.objects.iter().enumerate() {
            for c in o.cells.iter().filter(|c| fits(c.ty)) {
                out.push((i as u32 + 1, c.clone(), o.alive));
            }
        }
        out
    }

    /// The condition "`p` designates this cell (of a live object)".
    fn at_cell(&mut self, p: TermId, obj: u32, off: u64, alive: Option<PVar>) -> TermId {
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
    /// the dereference (an UNKNOWN sink when `p` designates no cell of its type).
    pub fn ref_place(
        &mut self,
        p: TermId,
        pointee: &CType,
        span: Span,
    ) -> Result<Place, FrontendError> {
        let (ty, place_of): (CInt, fn(Lval, CType) -> Place) = match pointee {
            CType::Int(t) => (*t, |lv, _| Place::Scalar(lv)),
            CType::Pointer(q) if !matches!(**q, CType::Function(..)) => (CInt::PTR, |lv, q| {
                let CType::Pointer(q) = q else { unreachable!() };
                Place::Ptr(lv, *q)
            }),
            CType::Void => return self.error(span, "dereferencing a `void *` pointer"),
            CType::Struct(def) => {
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
                return Ok(Place::Struct(self.mem_struct(p, def, span)?));
            }
            other => {
                return self.unsupported(span, format!("a general pointer to {}", other.describe()))
            }
        };
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
        let cands = self.candidates(ty);
        let mut valid = Vec::new();
        for (k, c, alive) in &cands {
            valid.push(self.at_cell(p, *k, c.offset, *alive));
        }
        let ok = self.cfa.tm.or_all(valid);
        let bad = self.cfa.tm.not(ok);
        self.ub_check(
            None,
            bad,
            "dereference of a pointer to no live object of its type (outside its object, dangling, or a byte view)",
        );
        Ok(place_of(Lval::Mem { ptr: p, ty }, pointee.clone()))
    }

    /// Reads the cell a general pointer designates (checked by [`Lower::ref_place`]).
    pub fn mem_read(&mut self, p: TermId, ty: CInt) -> TermId {
        let cands = self.candidates(ty);
        let w = ty.width(self.dm());
        let mut acc = self.cfa.tm.bv_const(0, w);
        for (k, c, _) in cands.iter().rev() {
            let here = self.at_cell(p, *k, c.offset, None);
            let v = self.var_term(c.var);
            let v = self.cfa.tm.resize(v, w, c.ty.signed);
            acc = self.cfa.tm.ite(here, v, acc);
        }
        acc
    }

    /// Writes `t` (of `ty`'s width) to the cell a general pointer designates.
    pub fn mem_write(&mut self, p: TermId, ty: CInt, t: TermId) {
        let p = self
            .materialize(RVal {
                t: p,
                ty: CInt::PTR,
            })
            .t;
        let t = self.materialize(RVal { t, ty }).t;
        for (k, c, _) in self.candidates(ty) {
            let here = self.at_cell(p, k, c.offset, None);
            let old = self.var_term(c.var);
            let w = self.cfa.var(c.var).ty.width;
            let v = self.cfa.tm.resize(t, w, ty.signed);
            let new = self.cfa.tm.ite(here, v, old);
            self.assign(c.var, new);
        }
    }

    /// Clears the object number of a general pointer variable (after a havoc: an address of
    /// no object).
    pub fn no_object(&mut self, v: PVar) {
        let t = self.var_term(v);
        let a = self.ptr_off(t);
        let r = self.make_ptr(0, a);
        self.assign(v, r);
    }

    /// Opens a block whose numbered locals end with it.
    pub fn open_objects(&mut self) {
        self.mem.blocks.push(Vec::new());
    }

    /// Closes the innermost block: the lifetime of its numbered locals ends.
    pub fn close_objects(&mut self) {
        let ids = self.mem.blocks.pop().unwrap_or_default();
        self.kill_objects(&ids);
    }

    /// Ends the lifetime of the numbered locals of the blocks from `depth` on (a jump out of
    /// them), without closing the blocks.
    pub fn leave_objects(&mut self, depth: usize) {
        let ids: Vec<u32> = self
            .mem
            .blocks
            .iter()
            .skip(depth)
            .flatten()
            .copied()
            .collect();
        self.kill_objects(&ids);
    }

    fn kill_objects(&mut self, ids: &[u32]) {
        for &id in ids {
            if let Some(a) = self.mem.objects[id as usize - 1].alive {
                let z = self.cfa.tm.bv_const(0, 1);
                self.assign(a, z);
            }
        }
    }
}

/// The variable of a scalar place at a fixed position.
fn lval_var(lv: &Lval, tm: &crate::bv::TermManager) -> Option<PVar> {
    match lv {
        Lval::Var(v, _) => Some(*v),
        Lval::Elem { arr, flat, .. } => tm
            .const_value(*flat)
            .and_then(|k| arr.elems.get(k as usize).copied()),
        _ => None,
    }
}

/// The first scalar of a structure (not a bit-field or a function pointer) and its offset in
/// the structure, as the place a pointer to the structure has the address of.
fn first_cell(view: &StructView) -> Option<(u64, Lval)> {
    for (m, p) in view.def.0.members.iter().zip(&view.parts) {
        let found = match p {
            Part::Scalar(lv) | Part::Ptr(lv, _) if m.bits.is_none() => Some((0, lv.clone())),
            Part::Array(v) => Some((
                0,
                Lval::Elem {
                    arr: v.arr.clone(),
                    flat: v.base,
                    ty: v.access,
                },
            )),
            Part::Struct(v) => first_cell(v),
            _ => None,
        };
        if let Some((rel, lv)) = found {
            return Some((rel + m.offset, lv));
        }
    }
    None
}
