//! Structures: their types (members and gcc's layout), their objects, member access, copies
//! of whole structures and arrays of structures.
//!
//! A structure object is split into its members, as far as a member is a scalar: each integer
//! or pointer member is a program variable of its own (`s.f`), an integer array member is an
//! array (see [`super::array`]), a structure member is split the same way. An array of
//! structures is kept as one array per scalar member (*leaf*): `struct S a[3]` with members
//! `int f; int g[2];` has the arrays `a[·].f` of 3 elements and `a[·].g[·]` of 3 × 2, so that
//! `a[i]` is the same subscript applied to every leaf — with the bounds check of `i` made once
//! — and `a[i].g[j]` is an element of a leaf. The variables are named as C designates them
//! (`a[1].g[0]`). Pointer members are general pointers ([`super::memory`]), function pointer
//! members hold function numbers ([`super::fnptr`]).
//!
//! This split is exact because a member's value has no other representation a program can
//! read except through its bytes, and the byte views of [`super::memory`] read and write the
//! members' variables (padding read through them is an UNKNOWN sink); the layout — `sizeof`,
//! `_Alignof`, member offsets — is computed as gcc does for i386 (ILP32) and x86-64 (LP64):
//! each member at the next multiple of its alignment, the size rounded up to the largest
//! alignment; bit-fields go at the next bit unless they would cross a boundary of their
//! type's alignment. A bit-field is a variable of its declared type whose value always lies in
//! the range of its width: a store converts to the declared type and then keeps the low bits,
//! sign- or zero-extended ([`Lval::Bits`]); a read of a bit-field narrower than `int` has type
//! `int`, as its promotion in gcc, a read of a `long` or `long long` bit-field of 32 bits
//! `int` or `unsigned int` (gcc's type of that precision). `long` and `long long` bit-fields
//! wider than that and narrower than their type (gcc computes with them in the bit-field's own
//! width), `packed`/`aligned` members and members of unsupported types make the structure type
//! unsupported (an error where it is used). A flexible array member is an array of no
//! elements at gcc's offset (its alignment counts, its size does not): an object without heap
//! has no room for its elements, so every access of one is out of bounds.
//!
//! A union is kept as its bytes (see [`super::unions`]); in an array of structures its leaves
//! are its bytes (one array `a[·].bytes[·]`, so that its members stay views of the same bytes)
//! and, for a union with pointer members, its tag and pointer.
//!
//! Assignment, initialisation by an expression, arguments and return values copy every
//! scalar of the source to the destination (the source values are read before the first
//! write, so `a[i] = a[j]` is exact when `i == j`).

use super::attrs::{declarator_attributes, qualifier_attributes};
use super::builder::Lower;
use super::repr::{
    ArrayView, Binding, ByteStore, InitPart, Lval, Part, Place, RVal, Slot, StructArray,
    StructView, Val, ADDRESS,
};
use super::types::{CInt, CType, IntKind, Member, StructDef, StructRef};
use super::unions::has_pointers;
use super::FrontendError;
use crate::cfa::{PVar, SrcPos, VarKind};
use lang_c::ast::{
    BinaryOperator, Expression, Initializer, MemberOperator, OffsetMember, OffsetOfExpression,
    SpecifierQualifier, StructDeclaration, StructField, StructKind, StructType,
};
use lang_c::span::{Node, Span};
use std::rc::Rc;

/// A member as one declaration of a structure declares it: its name (none for an anonymous
/// structure member or an unnamed bit-field), type, attributes and bit-field width.
type Field = (Option<String>, CType, Vec<super::attrs::Attr>, Option<u32>);

/// How the front end keeps a member of a given type.
enum Kind {
    Int(CInt),
    /// A bit-field of the declared type and width.
    Bits(CInt, u32),
    /// A pointer member: the type it points to (an object's or a function's).
    Pointer(CType),
    /// An array of integers, or of pointers (elements of [`CInt::PTR`] or, for function
    /// pointers, [`ADDRESS`]) to the type given.
    Array(CInt, Vec<u64>, Option<CType>),
    Struct(StructRef),
    StructArray(StructRef, Vec<u64>),
}

/// How a member of type `ty` is kept, or why it cannot be.
fn kind(ty: &CType) -> Result<Kind, String> {
    match ty {
        CType::Int(i) => Ok(Kind::Int(*i)),
        CType::Pointer(q) => Ok(Kind::Pointer((**q).clone())),
        CType::Struct(s) => Ok(Kind::Struct(s.clone())),
        CType::Array(..) => {
            let mut dims = Vec::new();
            let mut t = ty;
            while let CType::Array(e, n) = t {
                match n {
                    Some(n) => dims.push(*n),
                    None => return Err("flexible array member".into()),
                }
                t = e;
            }
            match t {
                CType::Int(i) => Ok(Kind::Array(*i, dims, None)),
                CType::Pointer(q) => Ok(Kind::Array(pointer_elem(q), dims, Some((**q).clone()))),
                CType::Struct(s) => Ok(Kind::StructArray(s.clone(), dims)),
                other => Err(format!("array of {}", other.describe())),
            }
        }
        CType::Unsupported(w) => Err(w.clone()),
        other => Err(other.describe()),
    }
}

/// How the front end keeps a member.
fn member_kind(m: &Member) -> Result<Kind, String> {
    match (m.bits, &m.ty) {
        (Some(w), CType::Int(i)) => Ok(Kind::Bits(*i, w)),
        _ => kind(&m.ty),
    }
}

/// A scalar of a structure type, as a path of members with the dimensions each adds.
struct Leaf {
    path: Vec<(Option<String>, Vec<u64>)>,
    ty: CInt,
    /// For an array of pointers: what its elements point to.
    pointee: Option<CType>,
}

/// The type a pointer to `q` is kept as: a general pointer, or a function's number.
fn pointer_elem(q: &CType) -> CInt {
    if matches!(q, CType::Function(..)) {
        ADDRESS
    } else {
        CInt::PTR
    }
}

/// The scalar leaves of a structure type in member order (the order of [`StructArray`]'s
/// arrays and of [`Lower::slots`]).
fn leaves(def: &StructDef) -> Vec<Leaf> {
    let mut out = Vec::new();
    if def.union {
        // Its bytes, and the state of a union with pointer members (see `unions`).
        let leaf = |name: &str, dims: Vec<u64>, ty: CInt| Leaf {
            path: vec![(Some(name.to_string()), dims)],
            ty,
            pointee: None,
        };
        out.push(leaf("bytes", vec![def.size], CInt::UCHAR));
        if def
            .members
            .iter()
            .any(|m| matches!(m.ty, CType::Pointer(_)))
        {
            out.push(leaf("tag", Vec::new(), CInt::UCHAR));
            out.push(leaf("ptr", Vec::new(), CInt::PTR));
        }
        return out;
    }
    for m in &def.members {
        let seg = |dims: Vec<u64>| (m.name.clone(), dims);
        match member_kind(m) {
            Ok(Kind::Int(i) | Kind::Bits(i, _)) => out.push(Leaf {
                path: vec![seg(Vec::new())],
                ty: i,
                pointee: None,
            }),
            Ok(Kind::Pointer(q)) => out.push(Leaf {
                path: vec![seg(Vec::new())],
                ty: pointer_elem(&q),
                pointee: None,
            }),
            Ok(Kind::Array(i, ds, pointee)) => out.push(Leaf {
                path: vec![seg(ds)],
                ty: i,
                pointee,
            }),
            Ok(Kind::Struct(s)) => {
                for mut l in leaves(&s.0) {
                    l.path.insert(0, seg(Vec::new()));
                    out.push(l);
                }
            }
            Ok(Kind::StructArray(s, ds)) => {
                for mut l in leaves(&s.0) {
                    l.path.insert(0, seg(ds.clone()));
                    out.push(l);
                }
            }
            // A structure with such a member is an unsupported type (see `struct_type`).
            Err(_) => {}
        }
    }
    out
}

/// The number of scalars of an object of type `ty` (an array's length counted as 1 when
/// unknown), in the order of [`Lower::slots`].
pub fn scalars(ty: &CType) -> u64 {
    match ty {
        CType::Array(e, n) => scalars(e).saturating_mul(n.unwrap_or(1)),
        CType::Struct(s) => s.0.members.iter().map(|m| scalars(&m.ty)).sum(),
        _ => 1,
    }
}

/// `[i][j]…` for indices.
fn subscripts(idx: &[u64]) -> String {
    idx.iter().map(|i| format!("[{i}]")).collect()
}

/// Whether a structure type has a union inside (an array of it would put the union's members
/// in separate arrays, see [`StructArray`]).
pub fn has_union(s: &StructRef) -> bool {
    s.0.union
        || s.0.members.iter().any(|m| match m.ty.array_dims().0 {
            CType::Struct(i) => has_union(i),
            _ => false,
        })
}

impl<'a> Lower<'a> {
    /// The type of a `struct` or `union` specifier: a definition (its tag bound in the current
    /// scope), or a reference to a tag.
    pub fn struct_type(&mut self, s: &Node<StructType>) -> Result<CType, FrontendError> {
        let union = s.node.kind.node == StructKind::Union;
        let kw = if union { "union" } else { "struct" };
        let tag = s.node.identifier.as_ref().map(|i| i.node.name.clone());
        let key = tag.as_ref().map(|t| format!("{kw} {t}"));
        let Some(decls) = &s.node.declarations else {
            if tag.is_none() {
                // Not C; what the parser makes of an attribute between the keyword and the tag.
                return self.unsupported(
                    s.span,
                    format!("`{kw}` without a tag or members (attributes between `{kw}` and its tag, as in `{kw} __attribute__((packed)) s {{…}}`, are not read)"),
                );
            }
            return Ok(match key.as_deref().and_then(|k| self.lookup(k)) {
                Some(Binding::Typedef(t)) => t.clone(),
                _ => CType::incomplete(kw, tag.as_deref().unwrap_or("")),
            });
        };
        let name = tag.as_deref().unwrap_or("<anonymous>").to_string();
        let layout = match self.struct_layout(&name, decls, union)? {
            Ok((members, _, align)) if union => {
                super::unions::union_layout(&name, members, align, self.dm())
            }
            other => other,
        };
        let ty = match layout {
            Ok((members, size, align)) => CType::Struct(StructRef(Rc::new(StructDef {
                tag,
                union,
                members,
                size,
                align,
            }))),
            Err(why) => CType::Unsupported(why),
        };
        if let Some(k) = key {
            self.bind(&k, Binding::Typedef(ty.clone()));
        }
        Ok(ty)
    }

    /// `q`, or, for a structure or union type that was incomplete where `q` was written (a
    /// pointer member to the structure being defined), its definition when one is in scope.
    pub fn completed(&self, q: &CType) -> CType {
        if let Some(Binding::Typedef(t @ CType::Struct(_))) =
            q.incomplete_key().and_then(|k| self.lookup(k))
        {
            return t.clone();
        }
        q.clone()
    }

    /// The members of a structure definition with gcc's layout (offsets, size, alignment), or
    /// why the structure is not supported. A flexible array member (the last member of a
    /// structure, C11 6.7.2.1p18) is laid out as gcc lays it out, an array of no elements at
    /// the offset its element type aligns it to: every access of an element of it in an
    /// object of the structure type is out of bounds (an object without heap never has
    /// room for its elements).
    #[allow(clippy::type_complexity)]
    fn struct_layout(
        &mut self,
        name: &str,
        decls: &[Node<StructDeclaration>],
        union: bool,
    ) -> Result<Result<(Vec<Member>, u64, u64), String>, FrontendError> {
        let dm = self.dm();
        let kw = if union { "union" } else { "struct" };
        let mut members = Vec::new();
        // The layout is computed in bits, for bit-fields.
        let (mut end, mut align) = (0u64, 1u64);
        let last = decls
            .iter()
            .rposition(|d| matches!(d.node, StructDeclaration::Field(_)));
        for (di, d) in decls.iter().enumerate() {
            let StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let base_attrs = qualifier_attributes(&f.node.specifiers);
            let fields = match self.struct_fields(name, f)? {
                Ok(fields) => fields,
                Err(why) => return Ok(Err(why)),
            };
            let count = fields.len();
            for (k, (n, ty, attrs, bits)) in fields.into_iter().enumerate() {
                let ty = match ty {
                    CType::Array(e, None) if !union && Some(di) == last && k + 1 == count => {
                        CType::Array(e, Some(0))
                    }
                    ty => ty,
                };
                let mut all = base_attrs.clone();
                all.extend(attrs);
                // `aligned` and `packed` change the layout: rejected on members.
                let (ty, _) = self.apply_attributes(ty, &all, true);
                let what = n.as_deref().unwrap_or("<anonymous>");
                if let Err(why) = kind(&ty) {
                    return Ok(Err(format!("{why} (member `{what}` of {kw} {name})")));
                }
                let (Some(size), Some(a)) = (ty.size(dm), ty.align(dm, false)) else {
                    return Ok(Err(format!("member `{what}` of {kw} {name}")));
                };
                if n.is_some() && members.iter().any(|m: &Member| m.name == n) {
                    return self.error(f.span, format!("duplicate member `{what}`"));
                }
                let unit = a * 8;
                let offset = match bits {
                    // Unnamed bit-fields do not align the structure.
                    Some(w) => {
                        end = bit_field_start(end, w, unit, size);
                        if w == 0 {
                            continue;
                        }
                        let at = end;
                        end += u64::from(w);
                        if n.is_none() {
                            continue;
                        }
                        at / 8
                    }
                    None => {
                        end = end.div_ceil(unit) * unit;
                        let at = end / 8;
                        end += size * 8;
                        at
                    }
                };
                align = align.max(a);
                members.push(Member {
                    name: n,
                    ty,
                    offset,
                    bits,
                });
            }
        }
        let bytes = end.div_ceil(8);
        Ok(Ok((members, bytes.div_ceil(align) * align, align)))
    }

    /// The members one declaration of a structure declares: name, type, attributes and
    /// bit-field width each (an anonymous structure member has no name), or why bitmc does not
    /// support one of them.
    fn struct_fields(
        &mut self,
        name: &str,
        f: &Node<StructField>,
    ) -> Result<Result<Vec<Field>, String>, FrontendError> {
        let specs: Vec<_> = f
            .node
            .specifiers
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        let base = self.type_specifiers(&specs, f.span)?;
        let mut fields = Vec::new();
        if f.node.declarators.is_empty() {
            // An anonymous structure member (C11 6.7.2.1p13); anything else declares nothing.
            if let CType::Struct(_) = base {
                fields.push((None, base.clone(), Vec::new(), None));
            } else if let CType::Unsupported(w) = &base {
                return Ok(Err(format!("{w} (anonymous member of struct {name})")));
            }
        }
        for sd in &f.node.declarators {
            let (n, ty, attrs) = match &sd.node.declarator {
                Some(decl) => {
                    let (n, ty) = self.declarator(base.clone(), decl)?;
                    (n.map(|(n, _)| n), ty, declarator_attributes(decl))
                }
                // An unnamed bit-field.
                None => (None, base.clone(), Vec::new()),
            };
            let bits = match &sd.node.bit_width {
                Some(w) => Some(self.bit_width(&n, &ty, w)?),
                None => None,
            };
            let bits = match bits {
                Some(Err(why)) => return Ok(Err(format!("{why} in struct {name}"))),
                Some(Ok(w)) => Some(w),
                None if sd.node.declarator.is_none() => {
                    return self.error(sd.span, "member without a name or a width")
                }
                None => None,
            };
            fields.push((n, ty, attrs, bits));
        }
        Ok(Ok(fields))
    }

    /// The width of a bit-field `name` of type `ty` (C11 6.7.2.1p4-5), or why bitmc does not
    /// support it: a `long` or `long long` bit-field wider than `int` and narrower than its
    /// type, whose arithmetic gcc does in the bit-field's own width.
    fn bit_width(
        &mut self,
        name: &Option<String>,
        ty: &CType,
        w: &Node<Expression>,
    ) -> Result<Result<u32, String>, FrontendError> {
        let what = name.as_deref().unwrap_or("<unnamed>");
        let i = match ty {
            CType::Int(i) if i.kind <= IntKind::LongLong => *i,
            CType::Int(i) => return Ok(Err(format!("bit-field `{what}` of type `{}`", i.name()))),
            CType::Unsupported(u) => return Ok(Err(u.clone())),
            other => {
                return self.error(
                    w.span,
                    format!("bit-field `{what}` of type {}", other.describe()),
                )
            }
        };
        let v = self.const_int(w)?;
        let max = i.width(self.dm());
        if v < 0 || v > i128::from(max) || (v == 0 && name.is_some()) {
            return self.error(w.span, format!("invalid width {v} of bit-field `{what}`"));
        }
        if v > 32 && v < i128::from(max) {
            return Ok(Err(format!(
                "bit-field `{what}` of type `{}` and width {v} (gcc computes in its width)",
                i.name()
            )));
        }
        Ok(Ok(v as u32))
    }

    /// Creates the variables of a structure object.
    pub fn new_struct(
        &mut self,
        name: &str,
        def: &StructRef,
        kind_: VarKind,
        pos: &Option<SrcPos>,
    ) -> Result<StructView, FrontendError> {
        if def.0.union {
            // A union is its bytes; its members are views of them.
            let bytes: Rc<[PVar]> = (0..def.0.size)
                .map(|k| {
                    self.new_var(
                        &format!("{name}.bytes[{k}]"),
                        CInt::UCHAR,
                        kind_,
                        pos.clone(),
                    )
                })
                .collect();
            let state = has_pointers(def).then(|| {
                let mut var = |what: &str, ty: CInt| {
                    Lval::Var(
                        self.new_var(&format!("{name}.{what}"), ty, kind_, pos.clone()),
                        ty,
                    )
                };
                (var("tag", CInt::UCHAR), var("ptr", CInt::PTR))
            });
            return Ok(self.union_view(def, &ByteStore::Vars(bytes), state));
        }
        let mut parts = Vec::new();
        for m in &def.0.members {
            let mname = match &m.name {
                Some(n) => format!("{name}.{n}"),
                None => name.to_string(),
            };
            let part = match member_kind(m) {
                Ok(Kind::Int(i)) => {
                    Part::Scalar(Lval::Var(self.new_var(&mname, i, kind_, pos.clone()), i))
                }
                Ok(Kind::Bits(i, width)) => Part::Scalar(Lval::Bits {
                    inner: Box::new(Lval::Var(self.new_var(&mname, i, kind_, pos.clone()), i)),
                    width,
                }),
                Ok(Kind::Pointer(q)) if matches!(q, CType::Function(..)) => Part::Addr(
                    Lval::Var(self.new_var(&mname, ADDRESS, kind_, pos.clone()), ADDRESS),
                    q,
                ),
                Ok(Kind::Pointer(q)) => Part::Ptr(
                    Lval::Var(
                        self.new_var(&mname, CInt::PTR, kind_, pos.clone()),
                        CInt::PTR,
                    ),
                    q,
                ),
                Ok(Kind::Array(i, ds, pointee)) => {
                    let leaf = Leaf {
                        path: vec![(None, ds)],
                        ty: i,
                        pointee,
                    };
                    Part::Array(self.leaf_array(&mname, &[], &leaf, kind_, pos)?)
                }
                Ok(Kind::Struct(s)) => Part::Struct(self.new_struct(&mname, &s, kind_, pos)?),
                Ok(Kind::StructArray(s, ds)) => {
                    Part::Structs(self.new_struct_array(&mname, &s, ds, kind_, pos)?)
                }
                Err(why) => return Err(FrontendError::Internal(why)),
            };
            parts.push(part);
        }
        Ok(StructView {
            def: def.clone(),
            parts,
        })
    }

    /// Creates the leaf arrays of an array of structures of dimensions `dims`.
    pub fn new_struct_array(
        &mut self,
        name: &str,
        def: &StructRef,
        dims: Vec<u64>,
        kind_: VarKind,
        pos: &Option<SrcPos>,
    ) -> Result<StructArray, FrontendError> {
        let mut out = Vec::new();
        for leaf in leaves(&def.0) {
            out.push(self.leaf_array(name, &dims, &leaf, kind_, pos)?);
        }
        Ok(StructArray {
            def: def.clone(),
            dims,
            leaves: out,
            at: None,
        })
    }

    /// The array of one leaf under the outer dimensions `outer`, its elements named as C
    /// designates them.
    fn leaf_array(
        &mut self,
        name: &str,
        outer: &[u64],
        leaf: &Leaf,
        kind_: VarKind,
        pos: &Option<SrcPos>,
    ) -> Result<ArrayView, FrontendError> {
        let mut dims = outer.to_vec();
        for (_, ds) in &leaf.path {
            dims.extend(ds);
        }
        let total = dims.iter().try_fold(1u64, |acc, d| acc.checked_mul(*d));
        let max = self.opts.max_array_elements;
        let total = match total {
            Some(t) if t <= max => t,
            _ => {
                return Err(FrontendError::Unsupported {
                    pos: pos.clone().unwrap_or_else(|| self.pos.clone()),
                    what: format!("array `{name}` with more than {max} elements"),
                })
            }
        };
        let mut elems: Vec<PVar> = Vec::with_capacity(total as usize);
        for k in 0..total {
            let mut idx = vec![0; dims.len()];
            let mut rest = k;
            for (slot, d) in idx.iter_mut().zip(&dims).rev() {
                *slot = rest % d.max(&1);
                rest /= d.max(&1);
            }
            let mut text = format!("{name}{}", subscripts(&idx[..outer.len()]));
            let mut at = outer.len();
            for (seg, ds) in &leaf.path {
                if let Some(s) = seg {
                    text.push('.');
                    text.push_str(s);
                }
                text.push_str(&subscripts(&idx[at..at + ds.len()]));
                at += ds.len();
            }
            elems.push(self.new_var(&text, leaf.ty, kind_, pos.clone()));
        }
        let base = self.cfa.tm.bv_const(0, 64);
        Ok(ArrayView {
            arr: Rc::new(super::repr::ArrayObj {
                elems,
                elem: leaf.ty,
                pointee: leaf.pointee.clone(),
                at: None,
            }),
            base,
            dims,
            access: leaf.ty,
        })
    }

    /// The structure (or the remaining array of structures) at a flat position of leaf arrays
    /// whose outer dimensions have been consumed, reading the leaves from `at`.
    fn view_from_leaves(
        &mut self,
        def: &StructRef,
        leaves: &[ArrayView],
        at: &mut usize,
    ) -> StructView {
        if def.0.union {
            return self.union_from_leaves(def, leaves, at);
        }
        let mut parts = Vec::new();
        for m in &def.0.members {
            let part = match member_kind(m) {
                Ok(k @ (Kind::Int(_) | Kind::Bits(..) | Kind::Pointer(_))) => {
                    let l = &leaves[*at];
                    *at += 1;
                    let lv = Lval::Elem {
                        arr: l.arr.clone(),
                        flat: l.base,
                        ty: l.access,
                    };
                    match k {
                        Kind::Pointer(q) if matches!(q, CType::Function(..)) => Part::Addr(lv, q),
                        Kind::Pointer(q) => Part::Ptr(lv, q),
                        Kind::Bits(_, width) => Part::Scalar(Lval::Bits {
                            inner: Box::new(lv),
                            width,
                        }),
                        _ => Part::Scalar(lv),
                    }
                }
                Ok(Kind::Array(..)) => {
                    *at += 1;
                    Part::Array(leaves[*at - 1].clone())
                }
                Ok(Kind::Struct(s)) => Part::Struct(self.view_from_leaves(&s, leaves, at)),
                Ok(Kind::StructArray(s, ds)) => {
                    let n = self::leaves(&s.0).len();
                    let sa = StructArray {
                        def: s,
                        dims: ds,
                        leaves: leaves[*at..*at + n].to_vec(),
                        at: None,
                    };
                    *at += n;
                    Part::Structs(sa)
                }
                Err(_) => continue,
            };
            parts.push(part);
        }
        StructView {
            def: def.clone(),
            parts,
        }
    }

    /// The union at a flat position of its leaves (see [`leaves`]), reading them from `at`.
    fn union_from_leaves(
        &mut self,
        def: &StructRef,
        leaves: &[ArrayView],
        at: &mut usize,
    ) -> StructView {
        let elem = |k: usize| {
            let l: &ArrayView = &leaves[k];
            Lval::Elem {
                arr: l.arr.clone(),
                flat: l.base,
                ty: l.access,
            }
        };
        let row = leaves[*at].clone();
        let state = has_pointers(def).then(|| (elem(*at + 1), elem(*at + 2)));
        *at += if state.is_some() { 3 } else { 1 };
        self.union_view(def, &ByteStore::Row(row), state)
    }

    /// Every leaf moved to the row `i` (a 64-bit term) of its first dimension.
    fn leaves_at(&mut self, leaves: &[ArrayView], i: crate::bv::TermId) -> Vec<ArrayView> {
        leaves
            .iter()
            .map(|l| {
                let stride: u64 = l.dims.iter().skip(1).product();
                let tm = &mut self.cfa.tm;
                let s = tm.bv_const(u128::from(stride), 64);
                let off = tm.mul(i, s);
                let base = tm.add(l.base, off);
                ArrayView {
                    arr: l.arr.clone(),
                    base,
                    dims: l.dims[1..].to_vec(),
                    access: l.access,
                }
            })
            .collect()
    }

    /// `sa[i]`: a structure or an array of structures of one dimension less. The index is
    /// checked once and saved in a temporary, so the place does not move with later effects.
    pub fn struct_index(
        &mut self,
        sa: &StructArray,
        i: RVal,
        span: Span,
    ) -> Result<Place, FrontendError> {
        let Some(&n) = sa.dims.first() else {
            return Err(FrontendError::Internal("subscript of a structure".into()));
        };
        self.address_of_element = self.address_of == Some(span);
        let idx = self.checked_index(n, i);
        self.address_of_element = false;
        let idx = self
            .materialize(RVal {
                t: idx,
                ty: CInt::new(IntKind::LongLong, false),
            })
            .t;
        if let Some(at) = sa.at {
            return self.mem_structs_index(sa, at, idx, span);
        }
        let leaves = self.leaves_at(&sa.leaves, idx);
        if sa.dims.len() == 1 {
            Ok(Place::Struct(
                self.view_from_leaves(&sa.def, &leaves, &mut 0),
            ))
        } else {
            Ok(Place::Structs(StructArray {
                def: sa.def.clone(),
                dims: sa.dims[1..].to_vec(),
                leaves,
                at: None,
            }))
        }
    }

    /// The place of member `name` of a structure.
    pub fn member_place(
        &mut self,
        s: &StructView,
        name: &str,
        span: Span,
    ) -> Result<Place, FrontendError> {
        match s.member(name) {
            Some(Part::Scalar(lv)) => Ok(Place::Scalar(lv)),
            Some(Part::Addr(lv, f)) => Ok(Place::Addr(lv, f)),
            Some(Part::Ptr(lv, q)) => Ok(Place::Ptr(lv, q)),
            Some(Part::Array(v)) => Ok(Place::Array(v)),
            Some(Part::Struct(v)) => Ok(Place::Struct(v)),
            Some(Part::Structs(v)) => Ok(Place::Structs(v)),
            None => self.error(
                span,
                format!(
                    "`{}` has no member named `{name}`",
                    CType::Struct(s.def.clone()).describe()
                ),
            ),
        }
    }

    /// The scalars of a structure in member order (arrays row-major).
    pub fn slots(&mut self, s: &StructView, out: &mut Vec<Slot>) {
        self.slots_in(s, out, false);
    }

    /// The scalars of a structure in member order, or with `raw` what a copy moves: the same,
    /// except that a union with pointer members is its bytes, its tag and its pointer (see
    /// [`super::unions`]).
    fn slots_in(&mut self, s: &StructView, out: &mut Vec<Slot>, raw: bool) {
        if let Some(state) = Self::union_state(s).filter(|_| raw) {
            let all = state.bytes.iter().chain([&state.tag, &state.ptr]);
            out.extend(all.map(|lv| Slot {
                lv: lv.clone(),
                pointer: false,
                func: None,
            }));
            return;
        }
        for p in &s.parts {
            match p {
                Part::Scalar(lv) => out.push(Slot {
                    lv: lv.clone(),
                    pointer: false,
                    func: None,
                }),
                Part::Addr(lv, f) => out.push(Slot {
                    lv: lv.clone(),
                    pointer: true,
                    func: Some(f.clone()),
                }),
                Part::Ptr(lv, _) => out.push(Slot {
                    lv: lv.clone(),
                    pointer: true,
                    func: None,
                }),
                Part::Array(v) => self.array_slots(v, out),
                Part::Struct(v) => self.slots_in(v, out, raw),
                Part::Structs(sa) => self.struct_array_slots_in(sa, out, raw),
            }
        }
    }

    /// The elements of an integer array view, row-major.
    pub fn array_slots(&mut self, v: &ArrayView, out: &mut Vec<Slot>) {
        let n: u64 = v.dims.iter().product();
        let func = v
            .arr
            .pointee
            .clone()
            .filter(|q| matches!(q, CType::Function(..)));
        for k in 0..n {
            let kc = self.cfa.tm.bv_const(u128::from(k), 64);
            let flat = self.cfa.tm.add(v.base, kc);
            let lv = self.elem_lval(&v.arr, flat, v.access);
            out.push(Slot {
                lv,
                pointer: v.arr.pointee.is_some(),
                func: func.clone(),
            });
        }
    }

    /// The scalars of an array of structures, element by element.
    pub fn struct_array_slots(&mut self, sa: &StructArray, out: &mut Vec<Slot>) {
        self.struct_array_slots_in(sa, out, false);
    }

    /// The scalars of an array of structures, element by element (`raw`: see
    /// [`Lower::slots_in`]).
    fn struct_array_slots_in(&mut self, sa: &StructArray, out: &mut Vec<Slot>, raw: bool) {
        let n: u64 = sa.dims.iter().product();
        if let Some(at) = sa.at {
            // Reached through a general pointer: each element checked as `*p` is (its member
            // kinds were accepted when the array was reached).
            let span = Span::none();
            for o in 0..n {
                let q = self.ptr_at(at, i128::from(o * sa.def.0.size));
                let q = self.non_null(q);
                if let Ok(v) = self.mem_struct(q, &sa.def, span) {
                    self.slots_in(&v, out, raw);
                }
            }
            return;
        }
        let outer = sa.dims.len();
        for o in 0..n {
            let leaves: Vec<ArrayView> = sa
                .leaves
                .iter()
                .map(|l| {
                    let stride: u64 = l.dims[outer..].iter().product();
                    let tm = &mut self.cfa.tm;
                    let off = tm.bv_const(u128::from(o * stride), 64);
                    ArrayView {
                        arr: l.arr.clone(),
                        base: tm.add(l.base, off),
                        dims: l.dims[outer..].to_vec(),
                        access: l.access,
                    }
                })
                .collect();
            let v = self.view_from_leaves(&sa.def, &leaves, &mut 0);
            self.slots_in(&v, out, raw);
        }
    }

    /// `dst = src` for structures of the same type: every source scalar is read before the
    /// first write. Through a pointer that may view other objects' bytes, the bytes under
    /// `dst`'s padding must be padding too ([`Lower::padding_stored`]).
    pub fn copy_struct(&mut self, dst: &StructView, src: &StructView) {
        self.padding_stored(dst);
        let (mut d, mut s) = (Vec::new(), Vec::new());
        self.slots_in(dst, &mut d, true);
        self.slots_in(src, &mut s, true);
        let values: Vec<RVal> = s.iter().map(|x| self.read(&x.lv)).collect();
        for (slot, v) in d.iter().zip(values) {
            self.store(&slot.lv, v);
        }
    }

    /// Initialises a structure or an array of structures from a brace-enclosed list (the
    /// scalars it does not name keep the zero they were given).
    pub fn init_aggregate(
        &mut self,
        b: &Binding,
        init: &Node<Initializer>,
    ) -> Result<(), FrontendError> {
        let Initializer::List(items) = &init.node else {
            return Err(FrontendError::Internal("aggregate initialiser".into()));
        };
        let mut slots = Vec::new();
        let ty = match b {
            Binding::Struct(v) => {
                self.slots(v, &mut slots);
                CType::Struct(v.def.clone())
            }
            Binding::Structs(sa) => {
                self.struct_array_slots(sa, &mut slots);
                sa.ctype()
            }
            _ => return Err(FrontendError::Internal("aggregate initialiser".into())),
        };
        let plan = self.plan_init(&ty, items, init.span)?;
        for part in plan.parts {
            match part {
                InitPart::Scalar { offset, expr } => {
                    let Some(slot) = slots.get(offset as usize).cloned() else {
                        return Err(FrontendError::Internal("initialiser offset".into()));
                    };
                    self.store_slot(&slot, expr)?;
                }
                InitPart::String { offset, len, expr } => {
                    let bytes = self.string_init(expr, CInt::CHAR)?;
                    if bytes.len() as u64 > len {
                        return self.error(expr.span, "string literal too long for the array");
                    }
                    for (k, byte) in bytes.into_iter().enumerate() {
                        let v = self.int_const(i128::from(byte as i8), CInt::CHAR);
                        if let Some(slot) = slots.get(offset as usize + k) {
                            let lv = slot.lv.clone();
                            self.store(&lv, v);
                        }
                    }
                }
                InitPart::Struct { offset, len, expr } => {
                    let Val::Struct(src) = self.expr(expr)? else {
                        return Err(FrontendError::Internal("structure initialiser".into()));
                    };
                    if super::unions::holds_pointer_union(&src.def) {
                        return self.unsupported(
                            expr.span,
                            "a member initialised by a copy of an object with a union with pointer members",
                        );
                    }
                    let mut from = Vec::new();
                    self.slots(&src, &mut from);
                    let values: Vec<RVal> = from.iter().map(|x| self.read(&x.lv)).collect();
                    let to = &slots[offset as usize..(offset + len) as usize];
                    for (slot, v) in to.iter().zip(values) {
                        self.store(&slot.lv, v);
                    }
                }
            }
        }
        Ok(())
    }

    /// Stores the value of an initialiser expression in a scalar of an object.
    fn store_slot(&mut self, slot: &Slot, e: &Node<Expression>) -> Result<(), FrontendError> {
        if !slot.pointer {
            let v = self.rval(e)?;
            self.store(&slot.lv, v);
            return Ok(());
        }
        let x = self.expr(e)?;
        let v = match &slot.func {
            Some(f) => self.function_number(x, f, e.span)?,
            None if slot.lv.ty().kind == IntKind::Ptr => self.general_pointer(x, e.span)?,
            None => self.address_value(x, e.span, "a pointer member")?,
        };
        self.store(&slot.lv, v);
        Ok(())
    }

    /// `offsetof(type, designator)` (C11 7.19p3): the byte offset of a member, through
    /// members and constant array subscripts.
    pub fn offset_of(&mut self, o: &Node<OffsetOfExpression>) -> Result<u64, FrontendError> {
        let mut ty = self.type_name(&o.node.type_name)?;
        let d = &o.node.designator.node;
        let mut total = self.member_offset(&mut ty, &d.base.node.name, d.base.span)?;
        for m in &d.members {
            match &m.node {
                OffsetMember::Member(id) => {
                    total += self.member_offset(&mut ty, &id.node.name, id.span)?;
                }
                OffsetMember::Index(e) => {
                    let CType::Array(elem, _) = &ty else {
                        return self.error(m.span, "subscript of a member that is not an array");
                    };
                    let elem = (**elem).clone();
                    let i = self.const_int(e)?;
                    let size = elem.size(self.dm()).unwrap_or(0);
                    let Ok(i) = u64::try_from(i) else {
                        return self.unsupported(e.span, "offsetof with a negative subscript");
                    };
                    total += i * size;
                    ty = elem;
                }
                OffsetMember::IndirectMember(_) => {
                    return self.error(m.span, "`->` in offsetof");
                }
            }
        }
        Ok(total)
    }

    /// The address `&((T *)c)->m…` designates, for a constant `c`: `c` plus the offset of the
    /// member reached by `->m` and a chain of `.m` and constant subscripts, and its type — the
    /// `offsetof` of code that predates `offsetof` (`(size_t)&((T *)0)->m`), which gcc folds
    /// to a constant and which dereferences nothing. `None` when `e` has another shape.
    pub fn constant_member_address(
        &mut self,
        e: &Node<Expression>,
    ) -> Result<Option<(u64, CType)>, FrontendError> {
        let (mut ty, at) = match &e.node {
            Expression::Member(m) if m.node.operator.node == MemberOperator::Indirect => {
                let Expression::Cast(c) = &m.node.expression.node else {
                    return Ok(None);
                };
                if !matches!(c.node.expression.node, Expression::Constant(_)) {
                    return Ok(None);
                }
                let CType::Pointer(q) = self.type_name(&c.node.type_name)? else {
                    return Ok(None);
                };
                let Ok(base) = u64::try_from(self.const_int(&c.node.expression)?) else {
                    return Ok(None);
                };
                let mut ty = self.completed(&q);
                let id = &m.node.identifier;
                let off = self.member_offset(&mut ty, &id.node.name, id.span)?;
                (ty, base.wrapping_add(off))
            }
            Expression::Member(m) => {
                let Some((at, mut ty)) = self.constant_member_address(&m.node.expression)? else {
                    return Ok(None);
                };
                let id = &m.node.identifier;
                let off = self.member_offset(&mut ty, &id.node.name, id.span)?;
                (ty, at.wrapping_add(off))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let Some((at, CType::Array(elem, _))) =
                    self.constant_member_address(&b.node.lhs)?
                else {
                    return Ok(None);
                };
                let Ok(i) = u64::try_from(self.const_int(&b.node.rhs)?) else {
                    return Ok(None);
                };
                let size = elem.size(self.dm()).unwrap_or(0);
                (*elem, at.wrapping_add(i.wrapping_mul(size)))
            }
            _ => return Ok(None),
        };
        ty = self.completed(&ty);
        Ok(Some((at, ty)))
    }

    /// The offset of member `name` of the structure type `ty`, which becomes the member's type.
    fn member_offset(
        &mut self,
        ty: &mut CType,
        name: &str,
        span: Span,
    ) -> Result<u64, FrontendError> {
        let CType::Struct(def) = ty.clone() else {
            return match ty {
                CType::Unsupported(w) => self.unsupported(span, w.clone()),
                _ => self.error(
                    span,
                    format!("offsetof of member `{name}` of a non-structure"),
                ),
            };
        };
        for m in &def.0.members {
            match &m.name {
                Some(n) if n == name => {
                    if m.bits.is_some() {
                        return self.error(span, format!("offsetof of the bit-field `{name}`"));
                    }
                    *ty = m.ty.clone();
                    return Ok(m.offset);
                }
                None => {
                    let mut inner = m.ty.clone();
                    if let Ok(off) = self.member_offset(&mut inner, name, span) {
                        *ty = inner;
                        return Ok(m.offset + off);
                    }
                }
                _ => {}
            }
        }
        self.error(
            span,
            format!("`{}` has no member named `{name}`", ty.describe()),
        )
    }

    /// The variables of a structure object or an array of structures.
    pub fn struct_vars(parts: &[Part], out: &mut Vec<PVar>) {
        for p in parts {
            match p {
                Part::Scalar(Lval::Var(v, _))
                | Part::Addr(Lval::Var(v, _), _)
                | Part::Ptr(Lval::Var(v, _), _) => out.push(*v),
                Part::Scalar(Lval::Elem { arr, .. })
                | Part::Addr(Lval::Elem { arr, .. }, _)
                | Part::Ptr(Lval::Elem { arr, .. }, _) => out.extend(arr.elems.iter().copied()),
                Part::Scalar(Lval::Mem { .. } | Lval::Field { .. })
                | Part::Addr(Lval::Mem { .. } | Lval::Field { .. }, _)
                | Part::Ptr(Lval::Mem { .. } | Lval::Field { .. }, _) => {}
                Part::Scalar(Lval::Bytes { bytes, .. })
                | Part::Addr(Lval::Bytes { bytes, .. }, _)
                | Part::Ptr(Lval::Bytes { bytes, .. }, _) => {
                    for b in bytes.iter() {
                        Self::struct_vars(&[Part::Scalar(b.clone())], out);
                    }
                }
                Part::Scalar(Lval::Tagged { state, .. })
                | Part::Addr(Lval::Tagged { state, .. }, _)
                | Part::Ptr(Lval::Tagged { state, .. }, _) => {
                    let mut all = vec![
                        Part::Scalar(state.tag.clone()),
                        Part::Scalar(state.ptr.clone()),
                    ];
                    all.extend(state.bytes.iter().map(|b| Part::Scalar(b.clone())));
                    Self::struct_vars(&all, out);
                }
                Part::Scalar(Lval::Bits { inner, .. })
                | Part::Addr(Lval::Bits { inner, .. }, _)
                | Part::Ptr(Lval::Bits { inner, .. }, _) => {
                    Self::struct_vars(&[Part::Scalar((**inner).clone())], out)
                }
                Part::Array(v) => out.extend(v.arr.elems.iter().copied()),
                Part::Struct(s) => Self::struct_vars(&s.parts, out),
                Part::Structs(sa) => {
                    for l in &sa.leaves {
                        out.extend(l.arr.elems.iter().copied());
                    }
                }
            }
        }
    }
}

/// Where gcc on x86 puts a bit-field of `w` bits whose type has `size` bytes and is aligned to
/// `unit` bits, when the bits before it end at `end`: at the next bit unless from the last
/// boundary of the alignment it would reach past the type's size (for every type but `long
/// long` on i386, aligned to 4 bytes, that is crossing the boundary); a zero width at the next
/// boundary.
fn bit_field_start(end: u64, w: u32, unit: u64, size: u64) -> u64 {
    if w == 0 || end % unit + u64::from(w) > size * 8 {
        end.div_ceil(unit) * unit
    } else {
        end
    }
}
