//! Structure objects and arrays of them: what each member designates (the lowering is in
//! `frontend::structs`).

use super::{ArrayView, Lval};
use crate::frontend::types::{CType, StructRef};

/// What one member of a structure designates.
#[derive(Clone, Debug)]
pub enum Part {
    /// An integer member.
    Scalar(Lval),
    /// A pointer to a function of the type (see [`crate::frontend::fnptr`]): the function's number,
    /// of the data model's pointer width.
    Addr(Lval, CType),
    /// A pointer to an object: a general pointer (see [`crate::frontend::memory`]) to the type.
    Ptr(Lval, CType),
    /// An array of integers.
    Array(ArrayView),
    /// A structure.
    Struct(StructView),
    /// An array of structures.
    Structs(StructArray),
}

/// A structure object: its type and what each member designates (in member order).
#[derive(Clone, Debug)]
pub struct StructView {
    pub def: StructRef,
    pub parts: Vec<Part>,
}

/// An array of structures with the remaining dimensions `dims`: one array per leaf of the
/// structure type (in the order of the leaves `structs` computes), each of dimensions `dims` followed by the leaf's own.
#[derive(Clone, Debug)]
pub struct StructArray {
    pub def: StructRef,
    pub dims: Vec<u64>,
    pub leaves: Vec<ArrayView>,
    /// For an array member of a structure reached through a general pointer: the general
    /// pointer to its first element (`leaves` is then empty; an element is the structure a
    /// general pointer designates, see [`crate::frontend::memory`]).
    pub at: Option<crate::bv::TermId>,
}

/// One scalar of an object, with whether it is a pointer, and the function type of a
/// function pointer.
#[derive(Clone, Debug)]
pub struct Slot {
    pub lv: Lval,
    pub pointer: bool,
    pub func: Option<CType>,
}

impl StructView {
    /// The member called `name` (looked up through anonymous structure members too).
    pub fn member(&self, name: &str) -> Option<Part> {
        for (m, p) in self.def.0.members.iter().zip(&self.parts) {
            match (&m.name, p) {
                (Some(n), _) if n == name => return Some(p.clone()),
                (None, Part::Struct(inner)) => {
                    if let Some(found) = inner.member(name) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

impl StructArray {
    /// The C type of the array.
    pub fn ctype(&self) -> CType {
        let mut t = CType::Struct(self.def.clone());
        for d in self.dims.iter().rev() {
            t = CType::Array(Box::new(t), Some(*d));
        }
        t
    }

    /// The type of one row (what the array decays to a pointer to).
    pub fn row_type(&self) -> CType {
        let mut t = CType::Struct(self.def.clone());
        for d in self.dims.iter().skip(1).rev() {
            t = CType::Array(Box::new(t), Some(*d));
        }
        t
    }
}
