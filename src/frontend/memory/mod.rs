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
//! difference of pointers into different objects. An object's address converted to an integer
//! is an UNKNOWN sink (its value would be the compiler's layout).
//!
//! Byte views: once the program converts a pointer to a pointer to an integer type of another
//! width ([`MemPlan::bytes`]), an access may also land on a run of bytes of cells of other
//! widths, at an offset aligned for the access type (a misaligned access is undefined): the
//! read assembles the bytes, little-endian as on x86, and the write replaces them in their
//! cells. A pointer converted to a pointer to a structure of another type than the object it
//! points to is a byte view too: each member is an access at its offset. `_Bool` and pointer
//! cells have no byte view (their bytes are the compiler's representation); a one-byte write
//! to a structure's padding changes nothing, and a read of padding is an UNKNOWN sink.

use super::builder::Lower;
use super::repr::{
    declaration_key, field_key, ArrayObj, Cell, Lval, MemObj, Part, Place, Root, StructArray,
    StructView, ADDRESS,
};
use super::structs::has_union;
use super::types::{CInt, IntKind};
use super::unions::holds_pointer_union;
use super::FrontendError;
use crate::cfa::{PVar, VarKind};
use lang_c::span::Span;
use std::collections::HashSet;

/// What a general pointer may not point to: a union with pointer members keeps a tag that
/// accesses through a pointer would not see (see [`super::unions`]).
const POINTER_UNION: &str =
    "a pointer to an object with a union with pointer members, or to such a member";

mod access;
mod copy;
mod cstring;
mod loops;
mod value;

impl<'a> Lower<'a> {
    /// The key of the declaration of the object `v` belongs to (its name and position; the
    /// same in every lowering of the unit and for every inlined instance).
    pub fn decl_key(&self, v: PVar) -> String {
        let info = self.cfa.var(v);
        // `a[1]`, `s.f`, `a[0].g#2`: the declared object `a` or `s`.
        let name = info.name.split(['#', '[', '.']).next().unwrap_or("");
        declaration_key(name, info.pos.as_ref())
    }

    /// Records that the pointer variable `v` must be general and asks for another lowering.
    pub fn needs_general<T>(&mut self, v: PVar) -> Result<T, FrontendError> {
        let k = self.decl_key(v);
        self.needs_general_key(k)
    }

    /// Records that the pointer declared with `key` must be general and asks for another
    /// lowering.
    pub fn needs_general_key<T>(&mut self, key: String) -> Result<T, FrontendError> {
        if self.mem.plan.general.contains(&key) {
            return Err(FrontendError::Internal(format!(
                "pointer `{key}` is general already"
            )));
        }
        self.mem.learnt.general.insert(key);
        Err(FrontendError::Relower)
    }

    /// Numbers the object `root` now if the plan says its address becomes a general pointer
    /// (at its declaration, so that its lifetime flag is set there).
    pub fn declare_object(&mut self, root: Root<'_>) {
        let Some(first) = root.first() else { return };
        if !self.mem.home.contains_key(&first)
            && self.mem.plan.exposed.contains(&self.decl_key(first))
        {
            self.number_root(root);
        }
    }

    fn number(&mut self, cells: Vec<Cell>, size: u64) -> u32 {
        let id = self.mem.objects.len() as u32 + 1;
        for c in &cells {
            self.mem.home.insert(c.var, (id, c.offset));
        }
        let alive = match cells.first().map(|c| c.var) {
            Some(first) => {
                let k = self.decl_key(first);
                if !self.mem.plan.exposed.contains(&k) {
                    self.mem.learnt.exposed.insert(k);
                }
                self.lifetime_flag(first, id)
            }
            None => None,
        };
        self.cfa
            .objects
            .push(cells.iter().map(|c| (c.offset, c.var)).collect());
        self.mem.objects.push(MemObj { cells, size, alive });
        id
    }

    /// The flag of the lifetime of object `id` (whose first cell is `first`), set now, for a
    /// local or a parameter: cleared when its block ends.
    fn lifetime_flag(&mut self, first: PVar, id: u32) -> Option<PVar> {
        let info = self.cfa.var(first);
        if !matches!(info.kind, VarKind::Local | VarKind::Parameter) || self.fctx.is_none() {
            return None;
        }
        let name = format!("{}#alive", info.name);
        let a = self.new_var(&name, CInt::BOOL, VarKind::Temporary, None);
        let one = self.cfa.tm.bv_const(1, 1);
        self.assign(a, one);
        if let Some(b) = self.mem.blocks.last_mut() {
            b.push(id);
        }
        Some(a)
    }

    /// Numbers a scalar or an array object.
    fn number_root(&mut self, root: Root<'_>) -> u32 {
        match root {
            Root::Scalar(var, ty) => {
                let size = self.cell_size(ty);
                self.number(
                    vec![Cell {
                        offset: 0,
                        var,
                        ty,
                        opaque: false,
                        field: None,
                    }],
                    size,
                )
            }
            Root::Array(arr) => {
                let mut cells = Vec::new();
                self.array_cells(arr, 0, arr.elems.len() as u64, 0, &mut cells);
                let size = self.cell_size(arr.elem) * arr.elems.len() as u64;
                self.number(cells, size)
            }
        }
    }

    /// The cells of `n` elements of `arr` from element `first`, the first at byte offset
    /// `base`.
    fn array_cells(&self, arr: &ArrayObj, first: u64, n: u64, base: u64, out: &mut Vec<Cell>) {
        let es = self.cell_size(arr.elem);
        let opaque = matches!(
            arr.pointee,
            Some(crate::frontend::types::CType::Function(..))
        );
        for i in 0..n {
            if let Some(&var) = arr.elems.get((first + i) as usize) {
                out.push(Cell {
                    offset: base + i * es,
                    var,
                    ty: arr.elem,
                    opaque,
                    field: None,
                });
            }
        }
    }

    /// `sizeof` of what a cell of type `t` holds.
    fn cell_size(&self, t: CInt) -> u64 {
        if t.kind == IntKind::Ptr {
            ADDRESS.size(self.dm())
        } else {
            t.size(self.dm())
        }
    }

    /// The object and offset of a cell, numbering its object when this is the first time (in
    /// a lowering the plan then repeats, since its declaration did not number it: a member of
    /// a structure is numbered as a scalar here, but the next lowering numbers the structure).
    fn home_of(&mut self, root: Root<'_>, span: Span) -> Result<(u32, u64), FrontendError> {
        let Some(v) = root.first() else {
            return self.unsupported(span, "a pointer into an empty array");
        };
        if let Some(&h) = self.mem.home.get(&v) {
            return Ok(h);
        }
        if self.mem.plan.exposed.contains(&self.decl_key(v)) {
            return self.unsupported(
                span,
                "a pointer to an object that is not a variable (a temporary)",
            );
        }
        self.number_root(root);
        Ok(self.mem.home[&v])
    }

    /// The cells of a structure object (or of one of its elements) at byte offset `base`:
    /// its scalar members, pointer members and the elements of its array members; bit-fields
    /// (their storage unit) and function pointers are opaque cells (no byte view reaches them;
    /// a bit-field's cell is designated only by an access of that member, see [`Cell::field`]).
    fn struct_cells(
        &mut self,
        view: &StructView,
        base: u64,
        out: &mut Vec<Cell>,
        span: Span,
    ) -> Result<(), FrontendError> {
        for (k, (m, p)) in view.def.0.members.iter().zip(&view.parts).enumerate() {
            let at = base + m.offset;
            match p {
                // A union's member: its bytes.
                Part::Scalar(Lval::Bytes { bytes, .. }) => {
                    let vars = bytes.iter().filter_map(|b| lval_var(b, &self.cfa.tm));
                    for (i, var) in vars.enumerate() {
                        out.push(Cell {
                            offset: at + i as u64,
                            var,
                            ty: CInt::UCHAR,
                            opaque: false,
                            field: None,
                        });
                    }
                }
                Part::Scalar(lv) | Part::Ptr(lv, _) | Part::Addr(lv, _) => {
                    let inner = match lv {
                        Lval::Bits { inner, .. } => inner,
                        lv => lv,
                    };
                    if let Some(var) = lval_var(inner, &self.cfa.tm) {
                        out.push(Cell {
                            offset: at,
                            var,
                            ty: inner.ty(),
                            opaque: m.bits.is_some() || matches!(p, Part::Addr(..)),
                            field: m.bits.map(|_| field_key(&view.def, k)),
                        });
                    }
                }
                Part::Array(v) => {
                    if let Some(b) = self.cfa.tm.const_value(v.base) {
                        let n: u64 = v.dims.iter().product();
                        self.array_cells(&v.arr, b as u64, n, at, out);
                    }
                }
                Part::Struct(v) => self.struct_cells(v, at, out, span)?,
                Part::Structs(sa) => self.structs_cells(sa, at, out, span)?,
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
        // The members of a union share its bytes: each once. Accesses to a union through
        // a pointer are byte views.
        let mut seen = HashSet::new();
        cells.retain(|c| seen.insert(c.var));
        let def = match whole {
            Place::Struct(v) => {
                if v.def.0.union {
                    self.mem.learnt.bytes = true;
                }
                &v.def
            }
            Place::Structs(sa) => {
                if has_union(&sa.def) {
                    self.mem.learnt.bytes = true;
                }
                &sa.def
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
        if holds_pointer_union(def) {
            return self.unsupported(span, POINTER_UNION);
        }
        self.number(cells, size);
        Ok(())
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

/// The first scalar of a structure that has a cell (not a function pointer) and its offset
/// in the structure, as the place a pointer to the structure has the address of.
fn first_cell(view: &StructView) -> Option<(u64, Lval)> {
    for (m, p) in view.def.0.members.iter().zip(&view.parts) {
        let found = match p {
            Part::Scalar(lv) | Part::Ptr(lv, _) if m.bits.is_none() => Some((0, lv.clone())),
            // A bit-field: its cell (through a general pointer, the pointer to it).
            Part::Scalar(Lval::Bits { inner, .. }) => match &**inner {
                Lval::Field { ptr, ty, .. } => Some((0, Lval::Mem { ptr: *ptr, ty: *ty })),
                lv => Some((0, lv.clone())),
            },
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
