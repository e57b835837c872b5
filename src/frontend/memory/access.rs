//! Accesses through general pointers: the candidate cells of an access type, the checked
//! dereference, reads and writes of the designated cell, structures reached through a pointer.

use super::{Cell, OBJ_BITS};
use crate::bv::TermId;
use crate::cfa::PVar;
use crate::frontend::builder::{Lower, RVal};
use crate::frontend::lval::Lval;
use crate::frontend::pointer::{Place, ADDRESS};
use crate::frontend::structs::{Part, StructView};
use crate::frontend::types::{CInt, CType, IntKind, StructRef};
use crate::frontend::FrontendError;
use lang_c::span::Span;

impl<'a> Lower<'a> {
    /// The structure `*p` designates for a general pointer `p` to a structure of type `def`:
    /// its members are cells at `p` plus their offsets, checked once (every scalar member must
    /// be a live cell of its type). Structures with bit-fields, array members or function
    /// pointers are not reached through general pointers.
    pub(super) fn mem_struct(
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
            all.push(self.live_cell(q, ty));
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

    /// The cells a pointer to `ty` may designate: those of the numbered objects whose type has
    /// `ty`'s width (neither or both `_Bool`; a general pointer only as a general pointer).
    pub(super) fn candidates(&self, ty: CInt) -> Vec<(u32, Cell, Option<PVar>)> {
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
        match pointee {
            CType::Int(_) | CType::Struct(_) => {}
            CType::Pointer(q) if !matches!(**q, CType::Function(..)) => {}
            CType::Void => return self.error(span, "dereferencing a `void *` pointer"),
            other => {
                return self.unsupported(span, format!("a general pointer to {}", other.describe()))
            }
        }
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
        let (ty, q) = match pointee {
            CType::Struct(def) => return Ok(Place::Struct(self.mem_struct(p, def, span)?)),
            CType::Pointer(q) => (CInt::PTR, Some((**q).clone())),
            CType::Int(t) => (*t, None),
            _ => return Err(FrontendError::Internal("pointee of a dereference".into())),
        };
        let ok = self.live_cell(p, ty);
        let bad = self.cfa.tm.not(ok);
        self.ub_check(
            None,
            bad,
            "dereference of a pointer to no live object of its type (outside its object, dangling, or a byte view)",
        );
        let lv = Lval::Mem { ptr: p, ty };
        Ok(match q {
            Some(q) => Place::Ptr(lv, q),
            None => Place::Scalar(lv),
        })
    }

    /// The condition "`p` designates a live cell accessed as `ty`".
    fn live_cell(&mut self, p: TermId, ty: CInt) -> TermId {
        let mut any = Vec::new();
        for (k, c, alive) in self.candidates(ty) {
            any.push(self.at_cell(p, k, c.offset, alive));
        }
        self.cfa.tm.or_all(any)
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
        let cands = self.candidates(ty);
        let mut literal = Vec::new();
        let read_only: Vec<(u32, u64)> = cands
            .iter()
            .filter(|c| self.mem.read_only.contains(&c.1.var))
            .map(|c| (c.0, c.1.offset))
            .collect();
        for (k, off) in read_only {
            literal.push(self.at_cell(p, k, off, None));
        }
        let literal = self.cfa.tm.or_all(literal);
        self.ub_check(None, literal, "write to a string literal");
        for (k, c, _) in cands {
            if self.mem.read_only.contains(&c.var) {
                continue;
            }
            let here = self.at_cell(p, k, c.offset, None);
            let old = self.var_term(c.var);
            let w = self.cfa.var(c.var).ty.width;
            let v = self.cfa.tm.resize(t, w, ty.signed);
            let new = self.cfa.tm.ite(here, v, old);
            self.assign(c.var, new);
        }
    }
}
