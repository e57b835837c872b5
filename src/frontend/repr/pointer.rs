//! Pointers bound to one object: what they designate (the lowering is in
//! `frontend::pointer`).

use super::{ArrayView, Lval, StructArray, StructView, Val};
use crate::frontend::types::{CInt, CType, IntKind};

/// What a pointer bound to an object designates (also the place an lvalue designates).
#[derive(Clone, Debug)]
pub enum Place {
    /// One scalar (a variable or an array element), accessed as the `Lval`'s type.
    Scalar(Lval),
    /// A position in an array, accessed as the view's `access` type.
    Array(ArrayView),
    /// A function pointer member of a structure and the function type: the function's number
    /// (see [`crate::frontend::fnptr`]; only as an lvalue, a pointer to it would be a pointer to a
    /// pointer).
    Addr(Lval, CType),
    /// A general pointer variable or cell (see [`crate::frontend::memory`]) and the type it points to.
    Ptr(Lval, CType),
    /// A structure.
    Struct(StructView),
    /// A position in an array of structures.
    Structs(StructArray),
}

impl Place {
    /// The type of the object designated, for messages.
    pub fn describe(&self) -> String {
        match self {
            Place::Scalar(lv) => lv.ty().name().to_string(),
            Place::Array(view) => view.row_type().describe(),
            Place::Addr(..) => "pointer".to_string(),
            Place::Ptr(_, q) => CType::Pointer(Box::new(q.clone())).describe(),
            Place::Struct(v) => CType::Struct(v.def.clone()).describe(),
            Place::Structs(sa) => sa.row_type().describe(),
        }
    }
}

/// A pointer bound to an object.
#[derive(Clone, Debug)]
pub struct Pointer {
    pub target: Place,
    /// Declared as a pointer to `void`: it cannot be dereferenced.
    pub void: bool,
}

impl Pointer {
    /// The bound pointer `v` is: a pointer value, or an array (of integers or of structures)
    /// decayed to its first element; any other value is given back.
    pub fn of_value(v: Val) -> Result<Pointer, Val> {
        let target = match v {
            Val::Ptr(p) => return Ok(p),
            Val::Array(view) => Place::Array(view),
            Val::Structs(sa) => Place::Structs(sa),
            v => return Err(v),
        };
        Ok(Pointer {
            target,
            void: false,
        })
    }
}

/// The integer type of an address-only pointer: unsigned, of the data model's pointer width
/// (`unsigned long` in ILP32 and LP64).
pub const ADDRESS: CInt = CInt {
    kind: IntKind::Long,
    signed: false,
};
