//! The C integer types the generator uses and what a generated expression may read or write at
//! one point of a program: scalars, arrays and matrices (with their lengths, so that indexes
//! stay in bounds), pointers bound to a scalar, address-only `void *` variables and `sizeof`
//! expressions.

use bitmc::cfa::DataModel;

/// One C integer type: its spelling, the suffix of its `__VERIFIER_nondet_*` function, its
/// width under ILP32 and LP64, and whether it is signed.
pub struct TyInfo {
    pub c: &'static str,
    pub nondet: &'static str,
    pub ilp32: u32,
    pub lp64: u32,
}

/// An index into [`TYPES`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ty(pub usize);

pub const TYPES: [TyInfo; 12] = [
    TyInfo {
        c: "_Bool",
        nondet: "bool",
        ilp32: 1,
        lp64: 1,
    },
    TyInfo {
        c: "char",
        nondet: "char",
        ilp32: 8,
        lp64: 8,
    },
    TyInfo {
        c: "signed char",
        nondet: "schar",
        ilp32: 8,
        lp64: 8,
    },
    TyInfo {
        c: "unsigned char",
        nondet: "uchar",
        ilp32: 8,
        lp64: 8,
    },
    TyInfo {
        c: "short",
        nondet: "short",
        ilp32: 16,
        lp64: 16,
    },
    TyInfo {
        c: "unsigned short",
        nondet: "ushort",
        ilp32: 16,
        lp64: 16,
    },
    TyInfo {
        c: "int",
        nondet: "int",
        ilp32: 32,
        lp64: 32,
    },
    TyInfo {
        c: "unsigned int",
        nondet: "uint",
        ilp32: 32,
        lp64: 32,
    },
    TyInfo {
        c: "long",
        nondet: "long",
        ilp32: 32,
        lp64: 64,
    },
    TyInfo {
        c: "unsigned long",
        nondet: "ulong",
        ilp32: 32,
        lp64: 64,
    },
    TyInfo {
        c: "long long",
        nondet: "longlong",
        ilp32: 64,
        lp64: 64,
    },
    TyInfo {
        c: "unsigned long long",
        nondet: "ulonglong",
        ilp32: 64,
        lp64: 64,
    },
];

/// The declarations of the nondet function of every type in [`TYPES`], one per line.
pub fn nondet_declarations() -> String {
    TYPES
        .iter()
        .map(|t| format!("extern {} __VERIFIER_nondet_{}(void);\n", t.c, t.nondet))
        .collect()
}

pub const BOOL: Ty = Ty(0);
pub const INT: Ty = Ty(6);

impl Ty {
    pub fn c(self) -> &'static str {
        TYPES[self.0].c
    }

    pub fn nondet(self) -> &'static str {
        TYPES[self.0].nondet
    }

    pub fn width(self, dm: DataModel) -> u32 {
        match dm {
            DataModel::Ilp32 => TYPES[self.0].ilp32,
            DataModel::Lp64 => TYPES[self.0].lp64,
        }
    }

    /// Whether an object of type `self` may be accessed through a pointer to `view`: the same
    /// type, or the same width with neither `_Bool` (bitmc's pointer views; gcc reinterprets
    /// the bits).
    pub fn viewable_as(self, view: Ty, dm: DataModel) -> bool {
        self == view || (self != BOOL && view != BOOL && self.width(dm) == view.width(dm))
    }
}

/// A scalar variable (or parameter).
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Ty,
    /// Loop counters and the state variable are written only by the code that owns them.
    pub writable: bool,
}

/// An array, a matrix, or a pointer (parameter) bound to one: element accesses are
/// `name[i]` or `name[i][j]` with every index below its dimension.
#[derive(Clone, Debug)]
pub struct Arr {
    pub name: String,
    pub ty: Ty,
    pub dims: Vec<u64>,
}

/// A pointer bound to a scalar object, read and written as `*name` or `name[0]`.
#[derive(Clone, Debug)]
pub struct Ptr {
    pub name: String,
    pub ty: Ty,
}

/// What code at one point may use.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub vars: Vec<Var>,
    pub arrays: Vec<Arr>,
    pub ptrs: Vec<Ptr>,
    /// Address-only `void *` variables: copied, compared, tested and cast to integers.
    pub addrs: Vec<String>,
    /// `sizeof` expressions (of pointers, array parameters, arrays, elements).
    pub sizeofs: Vec<String>,
}

impl Scope {
    pub fn writable_vars(&self) -> Vec<&Var> {
        self.vars.iter().filter(|v| v.writable).collect()
    }

    pub fn add_var(&mut self, name: String, ty: Ty) {
        self.vars.push(Var {
            name,
            ty,
            writable: true,
        });
    }

    /// Adds an array (or array parameter) and its `sizeof` expressions.
    pub fn add_array(&mut self, name: String, ty: Ty, dims: Vec<u64>) {
        self.sizeofs.push(format!("sizeof({name})"));
        self.sizeofs.push(format!("sizeof({name}[0])"));
        if dims.len() == 2 {
            self.sizeofs.push(format!("sizeof({name}[0][0])"));
        }
        self.arrays.push(Arr { name, ty, dims });
    }
}
