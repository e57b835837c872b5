//! Unions' bytes and the state of a union with pointer members (the lowering is in
//! `frontend::unions`).

use super::{ArrayObj, ArrayView, Lval};
use crate::cfa::PVar;
use crate::frontend::types::CInt;
use std::rc::Rc;

/// The tag of a union whose pointer bytes hold the bytes written through its other members.
pub const HOLDS_BYTES: u128 = 0;

/// The tag of a union whose last store through a pointer member was a pointer to an object.
pub const HOLDS_OBJECT: u128 = 1;

/// The tag of a union whose last store through a pointer member was a function's number.
pub const HOLDS_FUNCTION: u128 = 2;

/// What a union with pointer members keeps besides its bytes.
#[derive(Debug)]
pub struct UnionState {
    /// What the pointer's bytes hold: [`HOLDS_BYTES`], [`HOLDS_OBJECT`] or [`HOLDS_FUNCTION`]
    /// (`unsigned char`; any other value, of an uninitialised local, reads as none of them).
    pub tag: Lval,
    /// The pointer last stored through a pointer member ([`CInt::PTR`]; a function's number
    /// zero-extended).
    pub ptr: Lval,
    /// The union's bytes, lowest first.
    pub bytes: Rc<[Lval]>,
    /// `sizeof(void *)`: the bytes a pointer member occupies.
    pub psize: u64,
}

/// The tag check of an integer member of a union with pointer members whose bytes overlap
/// the pointer's.
#[derive(Clone, Debug)]
pub struct Guard {
    pub state: Rc<UnionState>,
    /// Whether the member covers all the pointer's bytes (a store tags them as bytes).
    pub covers: bool,
}

/// Where a union's bytes are.
#[derive(Clone, Debug)]
pub enum ByteStore {
    /// Variables of its own.
    Vars(Rc<[PVar]>),
    /// A row of the byte array of an array of unions (a view of one dimension, the size).
    Row(ArrayView),
}

impl ByteStore {
    /// The bytes `at..at + n` as places.
    pub fn bytes(&self, tm: &mut crate::bv::TermManager, at: u64, n: u64) -> Rc<[Lval]> {
        (at..at + n)
            .map(|k| match self {
                ByteStore::Vars(vs) => Lval::Var(vs[k as usize], CInt::UCHAR),
                ByteStore::Row(row) => {
                    let kc = tm.bv_const(u128::from(k), 64);
                    Lval::Elem {
                        arr: row.arr.clone(),
                        flat: tm.add(row.base, kc),
                        ty: CInt::UCHAR,
                    }
                }
            })
            .collect()
    }

    /// The bytes `at..at + n` as an array of `elem` of dimensions `dims`.
    pub fn array(
        &self,
        tm: &mut crate::bv::TermManager,
        at: u64,
        n: u64,
        elem: CInt,
        dims: Vec<u64>,
    ) -> ArrayView {
        match self {
            ByteStore::Vars(vs) => ArrayView {
                arr: Rc::new(ArrayObj {
                    elems: vs[at as usize..(at + n) as usize].to_vec(),
                    elem,
                    pointee: None,
                    at: None,
                }),
                base: tm.bv_const(0, 64),
                dims,
                access: elem,
            },
            ByteStore::Row(row) => {
                let kc = tm.bv_const(u128::from(at), 64);
                ArrayView {
                    arr: row.arr.clone(),
                    base: tm.add(row.base, kc),
                    dims,
                    access: elem,
                }
            }
        }
    }
}
