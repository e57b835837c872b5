//! How the front end represents C's values and objects while it lowers: what an identifier
//! is bound to ([`Binding`]), the value of an expression ([`Val`], [`RVal`]), the place an
//! lvalue designates ([`Lval`]), what a pointer bound to an object designates ([`Place`],
//! [`Pointer`]), array, structure and union objects ([`ArrayView`], [`StructView`],
//! [`UnionState`]), the numbered objects of general pointers ([`Memory`], [`MemPlan`]) and
//! the parts of an initialiser ([`InitPart`]).
//!
//! These are data: the lowering that makes, reads and writes them is `Lower`'s, in the files
//! named after each concern (`lval`, `pointer`, `array`, `structs`, `unions`, `memory`,
//! `init`). This module names none of them, so the lowering context in `builder` can hold
//! these types without an import cycle.

mod array;
mod memory;
mod pointer;
mod structs;
mod unions;

pub use array::{ArrayObj, ArrayView};
pub use memory::{
    declaration_key, field_key, ptr_width, Cell, FieldKey, MemObj, MemPlan, Memory, Root, OBJ_BITS,
};
pub use pointer::{Place, Pointer, ADDRESS};
pub use structs::{Part, Slot, StructArray, StructView};
pub use unions::{ByteStore, Guard, UnionState, HOLDS_BYTES, HOLDS_FUNCTION, HOLDS_OBJECT};

use super::types::{CInt, CType, IntKind};
use crate::bv::TermId;
use crate::cfa::PVar;
use lang_c::ast::Expression;
use lang_c::span::Node;
use std::rc::Rc;

/// What an identifier stands for.
#[derive(Clone, Debug)]
pub enum Binding {
    /// A scalar integer variable.
    Var(PVar, CInt),
    /// An array object.
    Array(ArrayView),
    /// A structure object (see [`crate::frontend::structs`]).
    Struct(StructView),
    /// An array of structures.
    Structs(StructArray),
    /// A pointer (or array parameter) bound to an object: `int *p = &x;`, `int *q = a;`, `f(a)`
    /// for `int a[]` (see [`crate::frontend::pointer`]).
    Pointer(Pointer, String),
    /// A pointer variable that is not bound to an object: an address-only integer, and the
    /// type it is declared to point to (for `sizeof *p`, whose operand is not evaluated).
    PtrVar(PVar, CType),
    /// A general pointer variable (see [`crate::frontend::memory`]) and the type it points to.
    Ref(PVar, CType),
    /// A function pointer variable (its value a function's number, see [`crate::frontend::fnptr`]) and
    /// the function type it points to.
    FnPtr(PVar, CType),
    /// An enumeration constant: its value and type (`int` unless the value does not fit).
    Enum(i128, CInt),
    Typedef(CType),
    /// A declared function (its type).
    Function(CType),
    /// A global of a type the front end does not support: an error only when used.
    Invalid(String),
}

/// An integer value: a term of the type's width.
#[derive(Clone, Copy, Debug)]
pub struct RVal {
    pub t: TermId,
    pub ty: CInt,
}

/// Where a function's result goes.
#[derive(Clone, Debug)]
pub enum Ret {
    Int(PVar, CInt),
    /// A general pointer (see [`crate::frontend::memory`]) to the type.
    Ptr(PVar, CType),
    Struct(StructView),
    /// A function pointer: its number (see [`crate::frontend::fnptr`]) and the function type.
    Func(PVar, CType),
}

/// The value of an expression.
#[derive(Clone, Debug)]
pub enum Val {
    Int(RVal),
    /// An array object (it decays to a pointer to its first row where a pointer is needed).
    Array(ArrayView),
    /// A pointer bound to an object (see [`crate::frontend::pointer`]).
    Ptr(Pointer),
    /// An address-only pointer: an unsigned integer of the pointer width.
    Addr(RVal),
    /// A general pointer (see [`crate::frontend::memory`]) and the type it points to.
    Ref(RVal, CType),
    /// A function pointer: the function's number and the function type (see
    /// [`crate::frontend::fnptr`]).
    Func(RVal, CType),
    /// A structure object (an rvalue structure is a temporary object, see [`crate::frontend::structs`]).
    Struct(StructView),
    /// An array of structures (it decays to a pointer to its first row).
    Structs(StructArray),
    Void,
}

/// Whether a value is a pointer to an object (not an integer or an address-only pointer).
pub fn is_pointer(v: &Val) -> bool {
    matches!(
        v,
        Val::Ref(..) | Val::Ptr(_) | Val::Array(_) | Val::Structs(_)
    )
}

/// A scalar place that can be read and written, with the type it is accessed as (the
/// object's own type, or one of the same width through a pointer; see [`crate::frontend::pointer`]).
#[derive(Clone, Debug)]
pub enum Lval {
    Var(PVar, CInt),
    /// An element of an array at a flat offset (a 64-bit term, checked to be in bounds).
    Elem {
        arr: Rc<ArrayObj>,
        flat: TermId,
        ty: CInt,
    },
    /// The cell a general pointer designates (see [`crate::frontend::memory`]), accessed as `ty`.
    Mem {
        ptr: TermId,
        ty: CInt,
    },
    /// The cell of the bit-field `key` (of declared type `ty`) in the structure a general
    /// pointer designates; `ptr` points to the byte holding its first bit (see
    /// [`crate::frontend::memory`]).
    Field {
        ptr: TermId,
        key: FieldKey,
        ty: CInt,
    },
    /// A bit-field: `inner` holds it as its declared type, always within the range of
    /// `width` bits (see [`crate::frontend::structs`]).
    Bits {
        inner: Box<Lval>,
        width: u32,
    },
    /// A member of a union: bytes of the union (places of 8 bits, lowest first), read and
    /// written as `ty` of their width, little-endian, checked against the union's tag when
    /// they overlap a pointer member's (see [`crate::frontend::unions`]).
    Bytes {
        bytes: Rc<[Lval]>,
        ty: CInt,
        guard: Option<Guard>,
    },
    /// A pointer member of a union with pointer members: a general pointer ([`CInt::PTR`])
    /// or a function's number (see [`crate::frontend::unions`]).
    Tagged {
        state: Rc<UnionState>,
        ty: CInt,
    },
}

impl Lval {
    /// The type the place is accessed as. A read of a bit-field is gcc's: `int` when the
    /// bit-field of type `int` or wider is narrower than `int` (of a narrower type it is that
    /// type, promoted to `int` later), `int` or `unsigned int` when a wider one has 32 bits,
    /// else its declared type (wider bit-fields of other widths are not supported).
    pub fn ty(&self) -> CInt {
        match self {
            Lval::Var(_, t)
            | Lval::Elem { ty: t, .. }
            | Lval::Mem { ty: t, .. }
            | Lval::Field { ty: t, .. }
            | Lval::Bytes { ty: t, .. }
            | Lval::Tagged { ty: t, .. } => *t,
            Lval::Bits { inner, width } => {
                let t = inner.ty();
                match (t.kind, *width) {
                    (IntKind::Int | IntKind::Long | IntKind::LongLong, ..=31) => CInt::INT,
                    (IntKind::Long | IntKind::LongLong, 32) if t.signed => CInt::INT,
                    (IntKind::Long | IntKind::LongLong, 32) => CInt::UINT,
                    _ => t,
                }
            }
        }
    }

    /// Accesses the place as `t` (of the same width; never a bit-field, whose address cannot
    /// be taken).
    pub fn set_ty(&mut self, t: CInt) {
        match self {
            Lval::Var(_, ty)
            | Lval::Elem { ty, .. }
            | Lval::Mem { ty, .. }
            | Lval::Bytes { ty, .. } => *ty = t,
            Lval::Bits { .. } | Lval::Field { .. } | Lval::Tagged { .. } => {}
        }
    }
}

/// What initialises one part of an object.
#[derive(Clone, Copy, Debug)]
pub enum InitPart<'a> {
    /// The scalar at a flat offset, by an expression converted to its type.
    Scalar {
        offset: u64,
        expr: &'a Node<Expression>,
    },
    /// The character array of `len` elements at a flat offset, by a string literal.
    String {
        offset: u64,
        len: u64,
        expr: &'a Node<Expression>,
    },
    /// The structure of `len` scalars at a flat offset, by an expression of its type.
    Struct {
        offset: u64,
        len: u64,
        expr: &'a Node<Expression>,
    },
}

impl InitPart<'_> {
    pub fn offset(&self) -> u64 {
        match self {
            InitPart::Scalar { offset, .. }
            | InitPart::String { offset, .. }
            | InitPart::Struct { offset, .. } => *offset,
        }
    }

    pub fn expr(&self) -> &Node<Expression> {
        match self {
            InitPart::Scalar { expr, .. }
            | InitPart::String { expr, .. }
            | InitPart::Struct { expr, .. } => expr,
        }
    }
}
