//! Array objects and views of them (the lowering is in `frontend::array`).

use crate::bv::TermId;
use crate::cfa::PVar;
use crate::frontend::types::{CInt, CType};
use std::rc::Rc;

/// An array object.
#[derive(Debug)]
pub struct ArrayObj {
    pub elems: Vec<PVar>,
    pub elem: CInt,
    /// For an array of pointers: the type the elements point to — an object type (elements
    /// of [`CInt::PTR`], general pointers) or a function type (elements hold function numbers,
    /// see [`crate::frontend::fnptr`]).
    pub pointee: Option<CType>,
    /// For an array member of a structure reached through a general pointer: the general
    /// pointer to its first element (`elems` is then empty, and an element is the place a
    /// general pointer designates, see [`crate::frontend::memory`]).
    pub at: Option<TermId>,
}

/// An array object seen from a flat base offset with the remaining dimensions.
#[derive(Clone, Debug)]
pub struct ArrayView {
    pub arr: Rc<ArrayObj>,
    /// The flat offset (64-bit term) of the first element of the view.
    pub base: TermId,
    pub dims: Vec<u64>,
    /// The type elements are accessed as: the element type, or one of the same width through
    /// a pointer (see [`crate::frontend::pointer`]).
    pub access: CInt,
}

impl ArrayView {
    /// The C type of the view.
    pub fn ctype(&self) -> CType {
        let mut t = self.elem_type();
        for d in self.dims.iter().rev() {
            t = CType::Array(Box::new(t), Some(*d));
        }
        t
    }

    /// The type of one row (what a pointer into the view points to): the element type for a
    /// one-dimensional view.
    pub fn row_type(&self) -> CType {
        let mut t = self.elem_type();
        for d in self.dims.iter().skip(1).rev() {
            t = CType::Array(Box::new(t), Some(*d));
        }
        t
    }

    /// The C type of an element.
    fn elem_type(&self) -> CType {
        match &self.arr.pointee {
            Some(q) => CType::Pointer(Box::new(q.clone())),
            None => CType::Int(self.access),
        }
    }

    pub fn stride(&self) -> u64 {
        self.dims.iter().skip(1).product()
    }
}
