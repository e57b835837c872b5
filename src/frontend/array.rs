//! Fixed-size integer arrays, expanded into one scalar variable per element.
//!
//! An array object of dimensions `d₁ × … × dₖ` has `d₁·…·dₖ` element variables in row-major
//! order (`a[1][2]`). A subscript is checked against its own dimension (`0 ≤ i < dⱼ`, compared
//! after widening to 128 bits, so no index value wraps into range); an index out of bounds
//! leads to the error location under `valid-index` and to an UNKNOWN sink otherwise. In bounds,
//! a read with a symbolic index is an `ite` chain over the flat offset, and a write assigns
//! `ite(offset = k, value, a_k)` to every element `a_k` (the offset is first saved in a
//! temporary when it reads elements of the same array). Arrays are passed to inlined functions
//! as views (the object, a base offset and the remaining dimensions), so `int a[]` and `int *a`
//! parameters see the caller's array with the caller's bounds.

use super::builder::Lower;
use super::repr::{ArrayObj, ArrayView, Binding, InitPart, Lval, RVal, Val, ADDRESS};
use super::types::{CInt, CType};
use super::FrontendError;
use crate::bv::TermId;
use crate::cfa::{PVar, VarKind};
use lang_c::ast::{Expression, Initializer, InitializerListItem};
use lang_c::span::{Node, Span};
use std::rc::Rc;

const FLAT_WIDTH: u32 = 64;

impl<'a> Lower<'a> {
    /// Creates the element variables of an array (the first length may come from `init`).
    pub fn new_array(
        &mut self,
        name: &str,
        span: Span,
        ty: &CType,
        kind: VarKind,
        init: Option<&Node<Initializer>>,
    ) -> Result<Binding, FrontendError> {
        let (elem, pointee, dims) = match (ty.array_shape(), pointer_array_shape(ty)) {
            (Some((elem, dims)), _) => (elem, None, dims),
            (None, Some((q, dims))) if matches!(q, CType::Function(..)) => (ADDRESS, Some(q), dims),
            (None, Some((q, dims))) => (CInt::PTR, Some(q), dims),
            (None, None) => {
                return self.unsupported(
                    span,
                    format!("array of {} (only arrays of integers)", elem_desc(ty)),
                )
            }
        };
        let ds = self.array_dims(name, span, ty, elem, &dims, init)?;
        let total = ds.iter().try_fold(1u64, |acc, d| acc.checked_mul(*d));
        let max = self.opts.max_array_elements;
        let total = match total {
            Some(t) if t <= max => t,
            _ => {
                return self.unsupported(
                    span,
                    format!("array `{name}` with more than {max} elements"),
                );
            }
        };
        let pos = Some(self.span_pos(span));
        let mut elems = Vec::with_capacity(total as usize);
        for k in 0..total {
            let suffix = index_suffix(k, &ds);
            elems.push(self.new_var(&format!("{name}{suffix}"), elem, kind, pos.clone()));
        }
        let arr = Rc::new(ArrayObj {
            elems,
            elem,
            pointee,
            at: None,
        });
        let base = self.cfa.tm.bv_const(0, FLAT_WIDTH);
        Ok(Binding::Array(ArrayView {
            arr,
            base,
            dims: ds,
            access: elem,
        }))
    }

    /// The dimensions of array `name` of type `ty` (its dimensions as declared, `dims`): the
    /// first, when the declaration leaves it out, from the initialiser (the list's length, or
    /// a string's with its terminating zero).
    fn array_dims(
        &mut self,
        name: &str,
        span: Span,
        ty: &CType,
        elem: CInt,
        dims: &[Option<u64>],
        init: Option<&Node<Initializer>>,
    ) -> Result<Vec<u64>, FrontendError> {
        let mut ds = Vec::new();
        for (i, d) in dims.iter().enumerate() {
            match d {
                Some(n) => ds.push(*n),
                None if i == 0 => {
                    let stride: u64 = dims.iter().skip(1).map(|d| d.unwrap_or(1)).product();
                    match init {
                        Some(Node {
                            node: Initializer::List(items),
                            span: init_span,
                        }) => {
                            let _ = stride;
                            ds.push(self.plan_init(ty, items, *init_span)?.top_len)
                        }
                        Some(Node {
                            node: Initializer::Expression(e),
                            ..
                        }) => ds.push(self.string_init(e, elem)?.len() as u64 + 1),
                        None => {
                            return self
                                .unsupported(span, format!("array `{name}` of unknown size"))
                        }
                    }
                }
                None => return self.error(span, "array of arrays of unknown size"),
            }
        }
        Ok(ds)
    }

    /// The variables of an object.
    pub fn object_vars(&self, b: &Binding) -> Vec<PVar> {
        match b {
            Binding::Var(v, _) => vec![*v],
            Binding::Array(view) => view.arr.elems.clone(),
            Binding::PtrVar(v, _) | Binding::FnPtr(v, _) | Binding::Ref(v, _) => vec![*v],
            Binding::Struct(s) => {
                let mut out = Vec::new();
                Self::struct_vars(&s.parts, &mut out);
                // The members of a union share its bytes: each once.
                let mut seen = std::collections::HashSet::new();
                out.retain(|v| seen.insert(*v));
                out
            }
            Binding::Structs(sa) => sa
                .leaves
                .iter()
                .flat_map(|l| l.arr.elems.iter().copied())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Assigns the elements given by an initialiser (the others keep their zero).
    pub fn init_array(
        &mut self,
        view: &ArrayView,
        init: &Node<Initializer>,
    ) -> Result<(), FrontendError> {
        match &init.node {
            Initializer::List(items) => self.init_list(view, items, init.span),
            Initializer::Expression(e) => {
                let bytes = self.string_init(e, view.arr.elem)?;
                if view.dims.len() != 1 {
                    return self.error(e.span, "string literal for an array of arrays");
                }
                let len = view.dims.iter().product::<u64>();
                self.store_string(view, 0, len, bytes, e.span)
            }
        }
    }

    /// The bytes of a string literal initialising an array of `char`.
    pub fn string_init(
        &mut self,
        e: &Node<Expression>,
        elem: CInt,
    ) -> Result<Vec<u8>, FrontendError> {
        match &e.node {
            Expression::StringLiteral(s) if elem.kind == super::types::IntKind::Char => {
                match super::literal::string_bytes(&s.node) {
                    Some(b) => Ok(b),
                    None => self.unsupported(e.span, "wide or non-ASCII string literal"),
                }
            }
            _ => self.unsupported(e.span, "array initialised by an expression"),
        }
    }

    /// Assigns the elements an initialiser list gives, in list order (see [`super::init`]).
    fn init_list(
        &mut self,
        view: &ArrayView,
        items: &[Node<InitializerListItem>],
        span: Span,
    ) -> Result<(), FrontendError> {
        let plan = self.plan_init(&view.ctype(), items, span)?;
        for part in plan.parts {
            match part {
                InitPart::Scalar { offset, expr } => {
                    let v = match &view.arr.pointee {
                        Some(f @ CType::Function(..)) => {
                            let x = self.expr(expr)?;
                            self.function_number(x, f, expr.span)?
                        }
                        Some(_) => {
                            let x = self.expr(expr)?;
                            self.general_pointer(x, expr.span)?
                        }
                        None => self.rval(expr)?,
                    };
                    let t = self.convert(v, view.arr.elem);
                    if let Some(&x) = view.arr.elems.get(offset as usize) {
                        self.assign(x, t);
                    }
                }
                InitPart::String { offset, len, expr } => {
                    let bytes = self.string_init(expr, view.arr.elem)?;
                    self.store_string(view, offset, len, bytes, expr.span)?;
                }
                InitPart::Struct { expr, .. } => {
                    return Err(FrontendError::Internal(format!(
                        "structure initialiser in an integer array at {}",
                        self.span_pos(expr.span)
                    )))
                }
            }
        }
        Ok(())
    }

    /// Stores the bytes of a string literal in the `len` elements from `offset` (the
    /// terminating null character only when it fits, as C11 6.7.9p14 allows).
    fn store_string(
        &mut self,
        view: &ArrayView,
        offset: u64,
        len: u64,
        bytes: Vec<u8>,
        span: Span,
    ) -> Result<(), FrontendError> {
        if bytes.len() as u64 > len {
            return self.error(span, "string literal too long for the array");
        }
        // The terminating null character (when it fits) is the zero already stored.
        for (k, b) in bytes.into_iter().enumerate() {
            let v = self.int_const(i128::from(b as i8), CInt::CHAR);
            let t = self.convert(v, view.arr.elem);
            if let Some(&x) = view.arr.elems.get(offset as usize + k) {
                self.assign(x, t);
            }
        }
        Ok(())
    }

    /// Element `flat` of `arr` accessed as `ty`: a cell of the array, or, for an array member
    /// reached through a general pointer, the checked place at its address.
    pub fn elem_lval(&mut self, arr: &Rc<ArrayObj>, flat: TermId, ty: CInt) -> Lval {
        match arr.at {
            Some(at) => self.mem_elem(at, arr.elem, flat, ty),
            None => Lval::Elem {
                arr: arr.clone(),
                flat,
                ty,
            },
        }
    }

    /// `view[idx]`: an element (recorded in `last_elem` for assignments) or a sub-array.
    pub fn index_value(&mut self, view: &ArrayView, idx: RVal) -> Result<Val, FrontendError> {
        let Some(&n) = view.dims.first() else {
            return Err(FrontendError::Internal(
                "subscript of a zero-dimensional array".into(),
            ));
        };
        let i64t = self.checked_index(n, idx);
        let tm = &mut self.cfa.tm;
        let stride = tm.bv_const(u128::from(view.stride()), FLAT_WIDTH);
        let off = tm.mul(i64t, stride);
        let flat = tm.add(view.base, off);
        if view.dims.len() == 1 {
            let lv = self.elem_lval(&view.arr, flat, view.access);
            let v = self.read(&lv);
            self.last_elem = Some(lv);
            Ok(match &view.arr.pointee {
                Some(f @ CType::Function(..)) => Val::Func(v, f.clone()),
                Some(q) => Val::Ref(v, q.clone()),
                None => Val::Int(v),
            })
        } else {
            Ok(Val::Array(ArrayView {
                arr: view.arr.clone(),
                base: flat,
                dims: view.dims[1..].to_vec(),
                access: view.access,
            }))
        }
    }

    /// An index into a dimension of length `n`, checked (`0 ≤ idx < n`, or `≤ n` for the
    /// address one past the end under `&`, which is a sink of its own), as a 64-bit term.
    pub fn checked_index(&mut self, n: u64, idx: RVal) -> TermId {
        let ity = idx.ty.promote();
        let it = self.convert(idx, ity);
        let tm = &mut self.cfa.tm;
        let wide = tm.resize(it, 128, ity.signed);
        let zero = tm.bv_const(0, 128);
        let len = tm.bv_const(u128::from(n), 128);
        let neg = tm.slt(wide, zero);
        if std::mem::take(&mut self.address_of_element) {
            // `&a[n]` is the address one past the end (C11 6.5.3.2p3: `a + n`), valid but not
            // an element: the pointer model has no place for it.
            let tm = &mut self.cfa.tm;
            let big = tm.sgt(wide, len);
            let oob = tm.or(neg, big);
            let past = tm.eq(wide, len);
            self.bounds_check(oob);
            self.sink_if(past, "unsupported: a pointer one past the end of an array");
        } else {
            let tm = &mut self.cfa.tm;
            let big = tm.sge(wide, len);
            let oob = tm.or(neg, big);
            self.bounds_check(oob);
        }
        self.cfa.tm.extract(wide, FLAT_WIDTH - 1, 0)
    }

    /// The value of the element at a flat offset (known to be in bounds).
    pub fn read_elem(&mut self, arr: &ArrayObj, flat: TermId) -> RVal {
        let ty = arr.elem;
        let w = ty.width(self.dm());
        if let Some(k) = self.cfa.tm.const_value(flat) {
            let t = match arr.elems.get(k as usize) {
                Some(&v) => self.var_term(v),
                None => self.cfa.tm.bv_const(0, w),
            };
            return RVal { t, ty };
        }
        let mut acc = match arr.elems.last() {
            Some(&v) => self.var_term(v),
            None => self.cfa.tm.bv_const(0, w),
        };
        let n = arr.elems.len();
        for k in (0..n.saturating_sub(1)).rev() {
            let kc = self.cfa.tm.bv_const(k as u128, FLAT_WIDTH);
            let c = self.cfa.tm.eq(flat, kc);
            let ek = self.var_term(arr.elems[k]);
            acc = self.cfa.tm.ite(c, ek, acc);
        }
        RVal { t: acc, ty }
    }

    /// Writes `t` (of the element width) to the element at a flat offset.
    pub fn write_elem(&mut self, arr: &ArrayObj, flat: TermId, t: TermId) {
        if let Some(k) = self.cfa.tm.const_value(flat) {
            if let Some(&v) = arr.elems.get(k as usize) {
                self.assign(v, t);
            }
            return;
        }
        let reads_array = self
            .cfa
            .tm
            .free_vars(flat)
            .iter()
            .any(|v| arr.elems.contains(&self.cfa.pvar(*v)));
        let flat = if reads_array {
            self.materialize(RVal {
                t: flat,
                ty: CInt::new(super::types::IntKind::LongLong, false),
            })
            .t
        } else {
            flat
        };
        for (k, &v) in arr.elems.iter().enumerate() {
            let kc = self.cfa.tm.bv_const(k as u128, FLAT_WIDTH);
            let c = self.cfa.tm.eq(flat, kc);
            let old = self.var_term(v);
            let new = self.cfa.tm.ite(c, t, old);
            if new != old {
                self.assign(v, new);
            }
        }
    }
}

fn elem_desc(ty: &CType) -> String {
    ty.array_dims().0.describe()
}

/// The pointee and dimensions of an array of pointers to objects or functions (`int *a[3]`,
/// `int (*f[2])(int)`).
pub fn pointer_array_shape(ty: &CType) -> Option<(CType, Vec<Option<u64>>)> {
    match ty.array_dims() {
        (CType::Pointer(q), dims) if !dims.is_empty() => Some(((**q).clone(), dims)),
        _ => None,
    }
}

/// The C index suffix (`[i][j]…`) of the `k`-th element, in row-major order, of an array of
/// dimensions `ds`.
fn index_suffix(k: u64, ds: &[u64]) -> String {
    let mut rest = k;
    let mut idx = Vec::new();
    for d in ds.iter().rev() {
        idx.push(rest % d.max(&1));
        rest /= d.max(&1);
    }
    idx.iter().rev().map(|i| format!("[{i}]")).collect()
}
