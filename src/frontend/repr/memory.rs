//! The numbered objects of general pointers and the plan that says which pointers are
//! general (the memory model and its lowering are in `frontend::memory`).

use super::ArrayObj;
use crate::cfa::{DataModel, PVar};
use crate::frontend::types::{CInt, StructRef};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The bits of a general pointer that number its object.
pub const OBJ_BITS: u32 = crate::cfa::POINTER_OBJECT_BITS;

/// The width of a general pointer under a data model.
pub fn ptr_width(dm: DataModel) -> u32 {
    CInt::PTR.width(dm)
}

/// What an earlier lowering of the unit learnt: the pointer declarations that must be general
/// and the objects whose address becomes a general pointer (both by [`Lower::decl_key`]), and
/// whether the program views objects' bytes through pointers of other widths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemPlan {
    pub general: HashSet<String>,
    pub exposed: HashSet<String>,
    /// A pointer is converted to a pointer to an integer type of another width than what it
    /// pointed to (`(unsigned char *)&x`, `(int *)buf`, from `void *`): every access through a
    /// general pointer may then also land on bytes of cells of other widths.
    pub bytes: bool,
}

impl MemPlan {
    /// Whether `other` adds nothing to `self`.
    pub fn covers(&self, other: &MemPlan) -> bool {
        other.general.is_subset(&self.general)
            && other.exposed.is_subset(&self.exposed)
            && (self.bytes || !other.bytes)
    }

    /// Adds what `other` knows.
    pub fn merge(&mut self, other: &MemPlan) {
        self.general.extend(other.general.iter().cloned());
        self.exposed.extend(other.exposed.iter().cloned());
        self.bytes |= other.bytes;
    }
}

/// An object that a pointer's cell belongs to: a scalar variable of a type, or an array.
#[derive(Clone, Copy)]
pub enum Root<'r> {
    Scalar(PVar, CInt),
    Array(&'r Rc<ArrayObj>),
}

impl Root<'_> {
    /// The object's first variable (`None` for an empty array).
    pub fn first(&self) -> Option<PVar> {
        match self {
            Root::Scalar(v, _) => Some(*v),
            Root::Array(arr) => arr.elems.first().copied(),
        }
    }
}

/// The key of a declaration by the name of what it declares (without subscripts or member
/// names) and its position: the same in every lowering of the unit.
pub fn declaration_key(name: &str, pos: Option<&crate::cfa::SrcPos>) -> String {
    match pos {
        Some(p) => format!("{name}@{}:{}", p.line, p.col),
        None => name.to_string(),
    }
}

/// A scalar of a numbered object. An *opaque* cell (a function pointer's number, a
/// bit-field's storage) is no place an access may land on: it only keeps its bytes from being
/// taken for padding by a byte view.
#[derive(Clone, Debug)]
pub struct Cell {
    pub offset: u64,
    pub var: PVar,
    pub ty: CInt,
    pub opaque: bool,
    /// The bit-field the cell holds: only a member access of that bit-field designates it.
    pub field: Option<FieldKey>,
}

/// A bit-field member: its structure type (compared by identity; held here, so that no other
/// type can take its place while a cell names it) and its index among the type's members.
pub type FieldKey = (StructRef, usize);

/// The key of the bit-field that is member `k` of `def`.
pub fn field_key(def: &StructRef, k: usize) -> FieldKey {
    (def.clone(), k)
}

/// A numbered object: its cells, its size and the flag of its lifetime (locals only).
#[derive(Debug)]
pub struct MemObj {
    pub cells: Vec<Cell>,
    pub size: u64,
    pub alive: Option<PVar>,
}

/// The numbered objects of a lowering.
#[derive(Debug, Default)]
pub struct Memory {
    pub objects: Vec<MemObj>,
    /// Each cell's object number and offset.
    pub home: HashMap<PVar, (u32, u64)>,
    /// The plan this lowering follows and what it learnt beyond it.
    pub plan: MemPlan,
    pub learnt: MemPlan,
    /// The objects with a lifetime flag declared in each open block, innermost last.
    pub blocks: Vec<Vec<u32>>,
    /// The cells of string literals: writing them is undefined.
    pub read_only: HashSet<PVar>,
    /// Whether each numbered array's elements follow each other (by the array's address).
    pub contiguous: HashMap<usize, bool>,
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
