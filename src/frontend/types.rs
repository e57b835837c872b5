//! C types and the rules between them.
//!
//! Data models: ILP32 (`char` 8, `short` 16, `int` 32, `long` 32, `long long` 64, pointers 32
//! bits) and LP64 (`long` and pointers 64 bits). Plain `char` is signed (as on x86). `_Bool` is
//! a one-bit unsigned value. An enumerated type is `unsigned int` when no enumerator is negative
//! and `int` otherwise (as gcc); enumeration constants have type `int`.
//!
//! Integer promotions: every type of rank below `int` (`_Bool`, `char`, `short`) becomes `int`
//! (which represents all their values). Usual arithmetic conversions (C11 6.3.1.8) on promoted
//! operands: equal types stay; same signedness gives the higher rank; an unsigned operand of
//! rank ≥ the other's wins; a signed type wider than the unsigned one wins; otherwise the
//! unsigned version of the signed type. Conversion to `_Bool` is `x != 0`; any other conversion
//! truncates or extends (sign-extends from a signed source), which is gcc's implementation-defined
//! behaviour for out-of-range signed results and is never an overflow.

use crate::cfa::{DataModel, IntType};

/// The integer conversion ranks (C11 6.3.1.1), lowest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum IntKind {
    Bool,
    Char,
    Short,
    Int,
    Long,
    LongLong,
    /// A general pointer (see `memory`): an object number and a byte offset or address; never
    /// an operand of integer arithmetic.
    Ptr,
}

/// A C integer type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CInt {
    pub kind: IntKind,
    pub signed: bool,
}

impl CInt {
    pub const BOOL: CInt = CInt {
        kind: IntKind::Bool,
        signed: false,
    };
    pub const CHAR: CInt = CInt {
        kind: IntKind::Char,
        signed: true,
    };
    /// `unsigned char`, the type of an object's bytes.
    pub const UCHAR: CInt = CInt {
        kind: IntKind::Char,
        signed: false,
    };
    pub const INT: CInt = CInt {
        kind: IntKind::Int,
        signed: true,
    };
    pub const UINT: CInt = CInt {
        kind: IntKind::Int,
        signed: false,
    };
    pub const PTR: CInt = CInt {
        kind: IntKind::Ptr,
        signed: false,
    };
    pub const LONG: CInt = CInt {
        kind: IntKind::Long,
        signed: true,
    };

    /// The type with the given kind and signedness.
    pub fn new(kind: IntKind, signed: bool) -> CInt {
        CInt {
            kind,
            signed: signed && kind != IntKind::Bool,
        }
    }

    /// The width in bits of a value of this type.
    pub fn width(self, dm: DataModel) -> u32 {
        match self.kind {
            IntKind::Bool => 1,
            IntKind::Char => 8,
            IntKind::Short => 16,
            IntKind::Int => 32,
            IntKind::Long => match dm {
                DataModel::Ilp32 => 32,
                DataModel::Lp64 => 64,
            },
            IntKind::LongLong => 64,
            IntKind::Ptr => {
                let address = match dm {
                    DataModel::Ilp32 => 32,
                    DataModel::Lp64 => 64,
                };
                address + crate::cfa::POINTER_OBJECT_BITS
            }
        }
    }

    /// `sizeof` in bytes.
    pub fn size(self, dm: DataModel) -> u64 {
        (u64::from(self.width(dm)) / 8).max(1)
    }

    /// The type of the CFA variable holding a value of this type.
    pub fn int_type(self, dm: DataModel) -> IntType {
        IntType {
            width: self.width(dm),
            signed: self.signed,
        }
    }

    /// The same rank, unsigned.
    pub fn to_unsigned(self) -> CInt {
        CInt {
            kind: self.kind,
            signed: false,
        }
    }

    /// The C name of the type.
    pub fn name(self) -> &'static str {
        match (self.kind, self.signed) {
            (IntKind::Bool, _) => "_Bool",
            (IntKind::Char, true) => "char",
            (IntKind::Char, false) => "unsigned char",
            (IntKind::Short, true) => "short",
            (IntKind::Short, false) => "unsigned short",
            (IntKind::Int, true) => "int",
            (IntKind::Int, false) => "unsigned int",
            (IntKind::Long, true) => "long",
            (IntKind::Long, false) => "unsigned long",
            (IntKind::LongLong, true) => "long long",
            (IntKind::LongLong, false) => "unsigned long long",
            (IntKind::Ptr, _) => "pointer",
        }
    }

    /// The integer promotion of this type.
    pub fn promote(self) -> CInt {
        if self.kind < IntKind::Int {
            CInt::INT
        } else {
            self
        }
    }

    /// The smallest and largest value of the type.
    pub fn range(self, dm: DataModel) -> (i128, i128) {
        let w = self.width(dm);
        if self.signed {
            (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
        } else {
            (0, (1i128 << w) - 1)
        }
    }
}

/// `size_t`: `unsigned int` (ILP32) or `unsigned long` (LP64).
pub fn size_t(dm: DataModel) -> CInt {
    match dm {
        DataModel::Ilp32 => CInt::UINT,
        DataModel::Lp64 => CInt::new(IntKind::Long, false),
    }
}

/// The common type of the usual arithmetic conversions of two (unpromoted) operand types.
pub fn usual_arithmetic(a: CInt, b: CInt, dm: DataModel) -> CInt {
    let (a, b) = (a.promote(), b.promote());
    if a == b {
        return a;
    }
    if a.signed == b.signed {
        return if a.kind >= b.kind { a } else { b };
    }
    let (s, u) = if a.signed { (a, b) } else { (b, a) };
    if u.kind >= s.kind {
        u
    } else if s.width(dm) > u.width(dm) {
        s
    } else {
        s.to_unsigned()
    }
}

/// A structure type: its tag, its members in order and gcc's layout for the data model it was
/// declared under.
#[derive(Debug)]
pub struct StructDef {
    pub tag: Option<String>,
    /// A union: every member at offset 0 (see [`super::structs`]).
    pub union: bool,
    pub members: Vec<Member>,
    /// `sizeof`: the end of the last member rounded up to the alignment.
    pub size: u64,
    /// `_Alignof`: the largest alignment of a member (1 for an empty structure).
    pub align: u64,
}

/// A member of a structure: its name (`None` for an anonymous structure member, whose
/// members are found through it), its type and its byte offset.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: Option<String>,
    pub ty: CType,
    pub offset: u64,
    /// The width of a bit-field (its `offset` is then the byte holding its first bit).
    pub bits: Option<u32>,
}

/// A structure type, compared by identity: two structure declarations are different types
/// (C11 6.7.2.3p5) even when their members agree.
#[derive(Clone, Debug)]
pub struct StructRef(pub std::rc::Rc<StructDef>);

impl PartialEq for StructRef {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A C type as far as the front end supports it.
#[derive(Clone, PartialEq, Debug)]
pub enum CType {
    Void,
    Int(CInt),
    /// An array of the element type with a length (`None` for `[]`, completed by an
    /// initialiser or meaning "any length" for a parameter).
    Array(Box<CType>, Option<u64>),
    Pointer(Box<CType>),
    /// A function type: return type and parameter types (`None`: unspecified, `()`).
    Function(Box<CType>, Option<Vec<CType>>),
    /// A structure type with its members and gcc's layout (see [`super::structs`]).
    Struct(StructRef),
    /// A type the front end does not support (struct, float, …): an error when used.
    Unsupported(String),
}

impl CType {
    /// A `struct` or `union` tag (`kw` is the keyword) named where it has no definition yet:
    /// unsupported, unless a pointer to it is used where the definition is known (see
    /// [`CType::incomplete_key`]).
    pub fn incomplete(kw: &str, tag: &str) -> CType {
        CType::Unsupported(format!("incomplete type `{kw} {tag}`"))
    }

    /// For a type made by [`CType::incomplete`], its tag as a scope key (`struct T`).
    pub fn incomplete_key(&self) -> Option<&str> {
        match self {
            CType::Unsupported(s) => s.strip_prefix("incomplete type `")?.strip_suffix('`'),
            _ => None,
        }
    }

    /// The integer type, if this is one.
    pub fn as_int(&self) -> Option<CInt> {
        match self {
            CType::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// `sizeof`, when defined.
    pub fn size(&self, dm: DataModel) -> Option<u64> {
        match self {
            CType::Int(i) => Some(i.size(dm)),
            CType::Array(e, Some(n)) => e.size(dm)?.checked_mul(*n),
            CType::Pointer(_) => Some(match dm {
                DataModel::Ilp32 => 4,
                DataModel::Lp64 => 8,
            }),
            CType::Struct(s) => Some(s.0.size),
            _ => None,
        }
    }

    /// The alignment in bytes, when defined: C11 `_Alignof` (`gnu` false) or gcc's
    /// `__alignof__` (`gnu` true). An array is aligned as its element (C11 6.5.3.4p3). On
    /// i386 (ILP32) the two differ for `long long`: its alignment as a member and by the ABI
    /// is 4, which `_Alignof` gives, while `__alignof__` gives its preferred alignment, 8.
    pub fn align(&self, dm: DataModel, gnu: bool) -> Option<u64> {
        match self {
            CType::Int(i) if i.kind == IntKind::LongLong && dm == DataModel::Ilp32 && !gnu => {
                Some(4)
            }
            CType::Int(_) | CType::Pointer(_) => self.size(dm),
            CType::Array(e, _) => e.align(dm, gnu),
            CType::Struct(s) => Some(s.0.align),
            _ => None,
        }
    }

    /// The innermost element type of an array (of any dimension) and the lengths, outermost
    /// first (no lengths for a type that is not an array).
    pub fn array_dims(&self) -> (&CType, Vec<Option<u64>>) {
        let mut dims = Vec::new();
        let mut t = self;
        while let CType::Array(e, n) = t {
            dims.push(*n);
            t = e;
        }
        (t, dims)
    }

    /// For an array of integers (of any dimension): the element type and the lengths.
    pub fn array_shape(&self) -> Option<(CInt, Vec<Option<u64>>)> {
        match self.array_dims() {
            (CType::Int(i), dims) if !dims.is_empty() => Some((*i, dims)),
            _ => None,
        }
    }

    /// A short description for error messages.
    pub fn describe(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Int(i) => i.name().into(),
            CType::Array(e, Some(n)) => format!("{}[{n}]", e.describe()),
            CType::Array(e, None) => format!("{}[]", e.describe()),
            CType::Pointer(e) if matches!(**e, CType::Function(..)) => {
                format!("pointer to {}", e.describe())
            }
            CType::Pointer(e) => format!("{}*", e.describe()),
            CType::Function(r, _) => format!("function returning {}", r.describe()),
            CType::Struct(s) => {
                let kw = if s.0.union { "union" } else { "struct" };
                match &s.0.tag {
                    Some(t) => format!("{kw} {t}"),
                    None => format!("{kw} <anonymous>"),
                }
            }
            CType::Unsupported(w) => w.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        let dm = DataModel::Ilp32;
        let ul = CInt::new(IntKind::Long, false);
        let ll = CInt::new(IntKind::LongLong, true);
        let c = CInt::CHAR;
        assert_eq!(usual_arithmetic(c, c, dm), CInt::INT);
        assert_eq!(usual_arithmetic(CInt::INT, CInt::UINT, dm), CInt::UINT);
        // long (32 bits) cannot hold every unsigned int: unsigned long.
        assert_eq!(usual_arithmetic(CInt::LONG, CInt::UINT, dm), ul);
        assert_eq!(
            usual_arithmetic(CInt::LONG, CInt::UINT, DataModel::Lp64),
            CInt::LONG
        );
        assert_eq!(usual_arithmetic(ll, ul, dm), ll);
        assert_eq!(usual_arithmetic(ll, ul, DataModel::Lp64), ll.to_unsigned());
        assert_eq!(
            usual_arithmetic(CInt::new(IntKind::Short, false), CInt::INT, dm),
            CInt::INT
        );
    }
}
