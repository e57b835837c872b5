//! Unions: their layout and the members as views of their bytes.
//!
//! A union is kept as its bytes (8-bit variables `u.bytes[k]`, or in an array of unions the
//! union's row of the byte array `a[·].bytes[·]`): an integer member is a little-endian view
//! of its bytes ([`Lval::Bytes`]), a `char` array member an array over them, a structure
//! member a view of its members at their offsets; so writing one member and reading another
//! reads the bytes gcc would.
//!
//! A `_Bool` member is its one byte: a store writes 0 or 1, a read of 0 or 1 is exact and a
//! read of any other byte (a trap representation, C11 6.2.6.2p5) is undefined behaviour (an
//! UNKNOWN sink).
//!
//! A pointer member (to an object or to a function, a direct member of the union) has no
//! byte representation in the model: a union with one keeps, besides its bytes, the pointer
//! last stored through a pointer member (`u.ptr`, a general pointer or a function's number)
//! and a tag `u.tag` of what its first `sizeof(void *)` bytes hold ([`HOLDS_BYTES`],
//! [`HOLDS_OBJECT`], [`HOLDS_FUNCTION`]). A store through a pointer member of a pointer to no
//! object — null or an integer converted to a pointer, whose bytes are that integer on x86 —
//! writes those bytes and tags them as bytes; any other pointer sets the tag and `u.ptr`. A
//! read through a pointer member is exact when the tag names its kind or the bytes hold an
//! address (an object pointer reads it as a pointer to no object, a function pointer reads
//! all-zero bytes as null); an integer member whose bytes overlap the pointer is read only
//! while they hold bytes, and written whole over them (which tags them as bytes) or, in part,
//! only while they hold bytes. Everything else — the bytes of a stored pointer, a function
//! pointer read as an object pointer — is an UNKNOWN sink, as the other byte views of
//! pointers ([`super::memory`]). Whole unions are copied with their tag and pointer. Such a
//! union may have no array member and no pointer inside a structure member, and its address
//! does not become a general pointer (both `unsupported`).

use super::builder::Lower;
use super::repr::{
    ByteStore, Guard, Lval, Part, RVal, StructView, UnionState, ADDRESS, HOLDS_BYTES,
    HOLDS_FUNCTION, HOLDS_OBJECT,
};
use super::types::{CInt, CType, IntKind, Member, StructRef};
use crate::bv::TermId;
use crate::cfa::DataModel;
use std::rc::Rc;

/// Whether a union type has pointer members (and so a [`UnionState`]).
pub fn has_pointers(def: &StructRef) -> bool {
    def.0.union
        && def
            .0
            .members
            .iter()
            .any(|m| matches!(m.ty, CType::Pointer(_)))
}

/// Whether a structure or union type has a union with pointer members inside (such an object
/// is not numbered for general pointers).
pub fn holds_pointer_union(def: &StructRef) -> bool {
    has_pointers(def)
        || def.0.members.iter().any(|m| match m.ty.array_dims().0 {
            CType::Struct(s) => holds_pointer_union(s),
            _ => false,
        })
}

/// The layout of a union with `members` (laid out as a structure's): every member at offset
/// 0, the size the largest member's rounded up to the largest alignment; or why the union is
/// not supported. Its members must have a byte view (integers, arrays of `char`, structures
/// and unions of those) or be pointers; a union with pointer members has no array members.
#[allow(clippy::type_complexity)]
pub fn union_layout(
    name: &str,
    mut members: Vec<Member>,
    align: u64,
    dm: DataModel,
) -> Result<(Vec<Member>, u64, u64), String> {
    let pointers = members.iter().any(|m| matches!(m.ty, CType::Pointer(_)));
    let mut size = 0;
    for m in &mut members {
        let what = m.name.as_deref().unwrap_or("<anonymous>");
        let ok = match &m.ty {
            _ if m.bits.is_some() => false,
            CType::Pointer(_) => true,
            CType::Array(..) if pointers => {
                return Err(format!(
                    "union {name} with a pointer member and the array member `{what}`"
                ))
            }
            ty => has_bytes(ty),
        };
        if !ok {
            return Err(format!(
                "union {name} with the member `{what}` of type {} (union members are integers, pointers, arrays of `char`, and structures and unions of integers and arrays of `char`)",
                m.ty.describe()
            ));
        }
        m.offset = 0;
        size = size.max(m.ty.size(dm).unwrap_or(0));
    }
    Ok((members, size.div_ceil(align) * align, align))
}

/// Whether an object of type `ty` can live in a union's bytes (see [`union_layout`]).
fn has_bytes(ty: &CType) -> bool {
    match ty {
        CType::Int(_) => true,
        CType::Array(e, Some(_)) => match &**e {
            CType::Int(i) => i.kind == IntKind::Char,
            e @ CType::Array(..) => has_bytes(e),
            _ => false,
        },
        CType::Struct(s) => {
            s.0.members
                .iter()
                .all(|m| m.bits.is_none() && has_bytes(&m.ty))
        }
        _ => false,
    }
}

impl<'a> Lower<'a> {
    /// The union `def` kept in `store`, with its state when it has pointer members.
    pub fn union_view(
        &mut self,
        def: &StructRef,
        store: &ByteStore,
        state: Option<(Lval, Lval)>,
    ) -> StructView {
        let state = state.map(|(tag, ptr)| {
            Rc::new(UnionState {
                tag,
                ptr,
                bytes: store.bytes(&mut self.cfa.tm, 0, def.0.size),
                psize: ADDRESS.size(self.dm()),
            })
        });
        self.byte_view(def, store, 0, state.as_ref())
    }

    /// The structure or union `def` kept in `store` from byte `base`: each integer member a
    /// view of its bytes, each `char` array member an array of them, each pointer member of a
    /// union with pointer members the union's pointer.
    fn byte_view(
        &mut self,
        def: &StructRef,
        store: &ByteStore,
        base: u64,
        state: Option<&Rc<UnionState>>,
    ) -> StructView {
        let dm = self.dm();
        let mut parts = Vec::new();
        for m in &def.0.members {
            let at = base + m.offset;
            let n = m.ty.size(dm).unwrap_or(0);
            let part = match (&m.ty, state) {
                (CType::Int(i), _) => {
                    let guard = state.filter(|s| at < s.psize).map(|s| Guard {
                        state: s.clone(),
                        covers: at == 0 && n >= s.psize,
                    });
                    Part::Scalar(Lval::Bytes {
                        bytes: store.bytes(&mut self.cfa.tm, at, n),
                        ty: *i,
                        guard,
                    })
                }
                (CType::Pointer(q), Some(s)) => {
                    let func = matches!(**q, CType::Function(..));
                    let lv = Lval::Tagged {
                        state: s.clone(),
                        ty: if func { ADDRESS } else { CInt::PTR },
                    };
                    if func {
                        Part::Addr(lv, (**q).clone())
                    } else {
                        Part::Ptr(lv, (**q).clone())
                    }
                }
                (CType::Struct(s), _) => Part::Struct(self.byte_view(s, store, at, state)),
                (ty, _) => {
                    let (elem, dims) = ty.array_dims();
                    let elem = match elem {
                        CType::Int(i) => *i,
                        _ => CInt::UCHAR,
                    };
                    let dims: Vec<u64> = dims.into_iter().map(|d| d.unwrap_or(0)).collect();
                    Part::Array(store.array(&mut self.cfa.tm, at, n, elem, dims))
                }
            };
            parts.push(part);
        }
        StructView {
            def: def.clone(),
            parts,
        }
    }

    /// The union's state in a view of a union with pointer members.
    pub fn union_state(view: &StructView) -> Option<Rc<UnionState>> {
        view.parts.iter().find_map(|p| match p {
            Part::Ptr(Lval::Tagged { state, .. }, _)
            | Part::Addr(Lval::Tagged { state, .. }, _) => Some(state.clone()),
            _ => None,
        })
    }

    /// Whether the pointer's bytes of a union hold something other than bytes.
    fn holds_pointer(&mut self, state: &UnionState) -> TermId {
        let tag = self.read(&state.tag).t;
        let bytes = self.cfa.tm.bv_const(HOLDS_BYTES, 8);
        self.cfa.tm.ne(tag, bytes)
    }

    /// The bytes `bytes` read as one value, lowest first.
    fn assemble(&mut self, bytes: &[Lval]) -> TermId {
        let mut acc = self.read(&bytes[0]).t;
        for b in &bytes[1..] {
            let hi = self.read(b).t;
            acc = self.cfa.tm.concat(hi, acc);
        }
        acc
    }

    /// Reads a member of a union kept in `bytes` as `ty` (see the module's documentation).
    pub fn read_member_bytes(&mut self, bytes: &[Lval], ty: CInt, guard: Option<&Guard>) -> RVal {
        if let Some(g) = guard {
            let held = self.holds_pointer(&g.state);
            self.sink_if(
                held,
                "a union member read over the bytes of a pointer stored in the union (not modelled)",
            );
        }
        let mut t = self.assemble(bytes);
        if ty.kind == IntKind::Bool {
            let one = self.cfa.tm.bv_const(1, 8);
            let trap = self.cfa.tm.ult(one, t);
            self.ub_check(
                None,
                trap,
                "a `_Bool` member read whose byte is neither 0 nor 1",
            );
            t = self.cfa.tm.extract(t, 0, 0);
        }
        RVal { t, ty }
    }

    /// Writes `t` (of type `ty`) to a member of a union kept in `bytes`.
    pub fn store_member_bytes(
        &mut self,
        bytes: &[Lval],
        ty: CInt,
        guard: Option<&Guard>,
        t: TermId,
    ) {
        if let Some(g) = guard.filter(|g| !g.covers) {
            let held = self.holds_pointer(&g.state);
            self.sink_if(
                held,
                "a part of a pointer stored in a union overwritten (not modelled)",
            );
        }
        let (t, ty) = if ty.kind == IntKind::Bool {
            (self.cfa.tm.zext(t, 8), CInt::UCHAR)
        } else {
            (t, ty)
        };
        // The value may read the bytes it is written to: kept first.
        let t = self.materialize(RVal { t, ty }).t;
        self.store_split(bytes, t);
        if let Some(g) = guard.filter(|g| g.covers) {
            let zero = self.cfa.tm.bv_const(HOLDS_BYTES, 8);
            self.store(
                &g.state.tag.clone(),
                RVal {
                    t: zero,
                    ty: CInt::UCHAR,
                },
            );
        }
    }

    /// Writes the low bytes of `t` to `bytes`, lowest first.
    fn store_split(&mut self, bytes: &[Lval], t: TermId) {
        for (i, b) in bytes.iter().enumerate() {
            let i = i as u32;
            let byte = self.cfa.tm.extract(t, 8 * i + 7, 8 * i);
            self.store(
                b,
                RVal {
                    t: byte,
                    ty: CInt::UCHAR,
                },
            );
        }
    }

    /// Reads a pointer member (`ty`: [`CInt::PTR`] or a function's number, [`ADDRESS`]) of a
    /// union with pointer members.
    pub fn read_tagged(&mut self, state: &UnionState, ty: CInt) -> RVal {
        let aw = ADDRESS.width(self.dm());
        let tag = self.read(&state.tag).t;
        let addr = self.assemble(&state.bytes[..state.psize as usize]);
        let ptr = self.read(&state.ptr).t;
        let tm = &mut self.cfa.tm;
        let bytes_tag = tm.bv_const(HOLDS_BYTES, 8);
        let in_bytes = tm.eq(tag, bytes_tag);
        let (want, from_bytes, ok_bytes, held) = if ty.kind == IntKind::Ptr {
            // An address in the bytes: a pointer to no object.
            let no_obj = tm.bv_const(0, super::repr::OBJ_BITS);
            let p = tm.concat(no_obj, addr);
            (HOLDS_OBJECT, p, in_bytes, ptr)
        } else {
            // Only all-zero bytes are a function pointer: null.
            let zero = tm.bv_const(0, aw);
            let is_null = tm.eq(addr, zero);
            let ok = tm.and(in_bytes, is_null);
            (HOLDS_FUNCTION, zero, ok, tm.extract(ptr, aw - 1, 0))
        };
        let tm = &mut self.cfa.tm;
        let want = tm.bv_const(want, 8);
        let is_kind = tm.eq(tag, want);
        let ok = tm.or(is_kind, ok_bytes);
        let bad = tm.not(ok);
        self.sink_if(
            bad,
            "a pointer member of a union read over bytes that are not a pointer of its kind (not modelled)",
        );
        let t = self.cfa.tm.ite(is_kind, held, from_bytes);
        RVal { t, ty }
    }

    /// Writes the pointer `t` (of type `ty`, as [`Lval::Tagged`]) through a pointer member of
    /// a union.
    pub fn store_tagged(&mut self, state: &UnionState, ty: CInt, t: TermId) {
        let t = self.materialize(RVal { t, ty }).t;
        let pw = CInt::PTR.width(self.dm());
        let (addr, is_addr, kind, wide) = if ty.kind == IntKind::Ptr {
            let obj = self.ptr_obj(t);
            let off = self.ptr_off(t);
            let zero = self.cfa.tm.bv_const(0, super::repr::OBJ_BITS);
            (off, self.cfa.tm.eq(obj, zero), HOLDS_OBJECT, t)
        } else {
            let tm = &mut self.cfa.tm;
            let zero = tm.bv_const(0, ADDRESS.width(self.opts.data_model));
            (t, tm.eq(t, zero), HOLDS_FUNCTION, tm.zext(t, pw))
        };
        let psize = state.psize as usize;
        self.store_split(&state.bytes[..psize], addr);
        let tm = &mut self.cfa.tm;
        let bytes_tag = tm.bv_const(HOLDS_BYTES, 8);
        let kind = tm.bv_const(kind, 8);
        let tag = tm.ite(is_addr, bytes_tag, kind);
        self.store(
            &state.tag,
            RVal {
                t: tag,
                ty: CInt::UCHAR,
            },
        );
        self.store(
            &state.ptr,
            RVal {
                t: wide,
                ty: CInt::PTR,
            },
        );
    }
}
