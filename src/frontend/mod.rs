//! The C front end: parses a C file (after the system preprocessor) and lowers it to a CFA.
//!
//! Semantics (see also [`types`] and [`arith`]):
//! - data models ILP32 (default, as SV-COMP) and LP64; integer promotions, the usual arithmetic
//!   conversions, and conversions at assignment, initialisation, return, argument and cast;
//! - signed overflow of `+ - *`, unary `-`, `++`/`--`, compound assignment and `<<` wraps (two's
//!   complement) unless the property is `no-overflow`, where each has an edge to the error
//!   location guarded by "the mathematical result is not representable" (sign-bit formulas for
//!   `+ -`, a double-width product for `*`; see [`arith`]);
//! - undefined behaviour that traps or has no agreed value leads to the error location under
//!   the property that reports it and to an UNKNOWN sink under every other property (no verdict
//!   rests on what follows it): division and remainder by zero (`div-by-zero`), `MIN / -1` and
//!   `MIN % -1` (`no-overflow`), an array index out of bounds (`valid-index`), and a shift by a
//!   negative amount or by at least the width of the promoted left operand (no property);
//! - `reach_error()`, `__VERIFIER_error()`, `__assert_fail()`, a failing `assert` or (built-in)
//!   `__VERIFIER_assert` lead to the error location under `unreach-call` and end the execution
//!   under the other properties (they abort in the compiled program);
//! - globals and static locals are zero-initialised, then initialised, on the entry edges; a
//!   local without initialiser is havocked at its declaration (indeterminate value);
//! - functions are inlined at each call; a recursive call is inlined up to
//!   [`FrontendOptions::recursion_bound`] active calls of the same function, and a call beyond
//!   that bound is an UNKNOWN sink (`recursion bound`), so a FALSE verdict within the bound is
//!   exact and TRUE holds only where the bound is never reached; a call of a function without
//!   a definition may write every global with external linkage that is not `const` (they are
//!   havocked, except for a few C library functions that write no object of the program) and
//!   returns a nondet value of its return type (with a warning); a counterexample that depends
//!   on such a value is UNKNOWN unless `verify::UndefinedCalls::Nondet` (see [`crate::cfa::taint`]);
//! - C library functions and gcc builtins on integers have exact models (see `libc`): `abs`,
//!   the bit-counting builtins, the overflow builtins, `<ctype.h>`, `rand`, `__builtin_trap`;
//! - GNU attributes are implemented (`mode`, `noreturn`), accepted when they do not change what
//!   the program computes, or rejected by name (see `attrs`);
//! - initialiser lists follow C11 6.7.9 with brace elision (see `init`);
//! - GNU's `a ?: b` is `a ? a : b` with `a` evaluated once (the parser reads it with a mark
//!   between `?` and `:`, see [`parse::ELVIS`]).
//!
//! - fixed-size integer arrays (local, global, multi-dimensional, with initialisers including
//!   designators and string literals for `char` arrays) are expanded into one variable per
//!   element (see the `array` module); they are passed to inlined functions by reference;
//! - pointers (see the `pointer` module): a pointer bound to the object it is initialised with
//!   or passed (`&x`, `&a[i]`, an array), accessed as its declared pointee type when that has
//!   the object's width (so signed and unsigned views are exact), or an address-only variable
//!   (null, integers cast to pointers, copies) that is never dereferenced; a pointer the
//!   program assigns an object's address after its declaration, moves, compares, subtracts,
//!   returns or points to, and every pointer member of a structure, is a general pointer, an
//!   object number and a byte offset (see the `memory` module), whose dereference is a choice
//!   over the cells of the numbered objects (integers, pointers, structures through `->`) and
//!   whose undefined uses (outside its object, dangling, null, misaligned) are UNKNOWN sinks;
//!   a pointer converted to an integer type of another width views the bytes of the objects'
//!   integer cells, little-endian (`memory::access`), and `memset`, `memcpy`, `memmove`,
//!   `memcmp` work byte by byte (`memory::copy`, `memory::loops`), and so do the members of
//!   a structure reached through a pointer converted from a pointer to another type (another
//!   structure, an integer, an array); `sizeof` of a pointer or array
//!   parameter is the data model's pointer size;
//! - string literals are arrays of `char` with static storage (see the `strings` module);
//!   writing one is an UNKNOWN sink;
//! - structures (see the `structs` module) with gcc's layout: each scalar member is a variable
//!   of its own, an array of structures is one array per scalar member; member access through
//!   `.` and `->`, whole-structure copies (assignment, initialisation, arguments, return
//!   values), initialisers with member designators, pointers bound to a structure or an
//!   element of an array of structures;
//! - function pointers (see the `fnptr` module): variables, parameters, structure members and
//!   array elements holding a function or null, compared, passed as callbacks; a call through
//!   one is a choice over the address-taken functions of its type, null or anything else an
//!   UNKNOWN sink.
//!
//! Unsupported constructs give `file:line:col: error: unsupported: <what>`: general pointers to
//! structures with function pointers or unions with pointer members; a
//! pointer converted to a pointer to another array shape;
//! function pointers converted to integers; union members other than integers, pointers,
//! arrays of `char` and structures and unions of those (bit-fields, arrays of wider integers or
//! of pointers), a pointer member beside an array member; wide string literals, heap
//! functions, `long` and `long long` bit-fields wider than 32 bits and narrower than their
//! type, flexible array members of unions, floating point, threads, variable-length arrays, inline
//! assembly, `_Atomic`, arrays of more than
//! [`FrontendOptions::max_array_elements`] elements.
//! Declarations of unsupported types that are never used (e.g. from system headers) are
//! accepted. Nothing is silently dropped. The library never prints: warnings are returned in
//! [`Lowered::warnings`].

pub mod arith;
mod array;
mod attrs;
mod builder;
mod builtins;
mod call;
mod columns;
mod cond;
mod decl;
mod expr;
mod fnptr;
mod init;
mod libc;
mod literal;
mod lval;
mod memory;
mod order;
pub mod parse;
mod pointer;
mod repr;
mod stmt;
mod strings;
mod structs;
pub mod types;
mod unions;
mod unit;

use crate::cfa::{self, Cfa, DataModel, Property, SrcPos};
use std::path::Path;

/// The default of [`FrontendOptions::recursion_bound`].
pub const DEFAULT_RECURSION_BOUND: u32 = 6;

/// Options of the lowering.
#[derive(Clone, Debug)]
pub struct FrontendOptions {
    /// The property whose checks are built.
    pub property: Property,
    pub data_model: DataModel,
    /// Apply large-block encoding to the result.
    pub lbe: bool,
    /// The largest number of elements of an array (arrays are expanded into scalars).
    pub max_array_elements: u64,
    /// How many calls of one function may be active at once (recursion is inlined that deep;
    /// a call beyond it is an UNKNOWN sink).
    pub recursion_bound: u32,
    /// Options for the preprocessor, each `-IDIR`, `-DNAME[=VALUE]` or `-UNAME`.
    pub cpp_args: Vec<String>,
}

impl Default for FrontendOptions {
    fn default() -> FrontendOptions {
        FrontendOptions {
            property: Property::UnreachCall,
            data_model: DataModel::Ilp32,
            lbe: true,
            max_array_elements: 4096,
            recursion_bound: DEFAULT_RECURSION_BOUND,
            cpp_args: Vec::new(),
        }
    }
}

/// The result of lowering a C program.
#[derive(Debug)]
pub struct Lowered {
    pub cfa: Cfa,
    /// Warnings for the user (e.g. calls to undefined functions), one line each, in gcc's form
    /// (`file:line:col: warning: message`).
    pub warnings: Vec<String>,
}

/// Why a program could not be lowered. `Display` is one line.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// A construct outside the supported subset.
    #[error("{pos}: error: unsupported: {what}")]
    Unsupported { pos: SrcPos, what: String },
    /// A syntax error (with the token) or a semantic error in the program.
    #[error("{pos}: error: {msg}")]
    Parse { pos: SrcPos, msg: String },
    /// The file cannot be read.
    #[error("{file}: error: {msg}")]
    Input { file: String, msg: String },
    /// The preprocessor failed: its first error line (gcc's form, `file:line:col: error: …`).
    #[error("{msg}")]
    Preprocess { msg: String },
    /// Neither `gcc` nor `cpp` is installed.
    #[error("no C preprocessor found: bitmc needs `gcc` (or `cpp`) to preprocess C files")]
    NoPreprocessor,
    /// A bug in the front end, caught instead of a panic.
    #[error("internal error in the C front end: {0}")]
    Internal(String),
    /// The front end's thread (with its large stack) cannot start: the process may not grow
    /// by that much (an address-space limit such as `ulimit -v`).
    #[error("the C front end cannot start: {0}")]
    OutOfMemory(String),
    /// The lowering learnt that the unit must be lowered again with a larger memory plan
    /// (see `memory`); never returned by [`lower`].
    #[error("internal error in the C front end: lowering not finished")]
    Relower,
}

impl FrontendError {
    /// Whether this is an `unsupported` error.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, FrontendError::Unsupported { .. })
    }
}

/// The type `function` returns when it is one of SV-COMP's `__VERIFIER_nondet_<T>` built-ins
/// (`None` for another name, whose type is the one the program declares).
pub fn nondet_type(function: &str, dm: DataModel) -> Option<types::CInt> {
    builtins::nondet_type(function.strip_prefix("__VERIFIER_nondet_")?, dm)
}

/// Preprocesses, parses and lowers a C file (`.c` or `.i`).
pub fn lower_file(path: &Path, opts: &FrontendOptions) -> Result<Lowered, FrontendError> {
    let text = parse::preprocess_with(path, opts.data_model, &opts.cpp_args)?;
    let name = path.display().to_string();
    lower_preprocessed(text, &name, opts)
}

/// Preprocesses, parses and lowers C source text; positions name `file_name`.
pub fn lower_source(
    text: &str,
    file_name: &str,
    opts: &FrontendOptions,
) -> Result<Lowered, FrontendError> {
    let pre = parse::preprocess_text(text, file_name, opts.data_model, &opts.cpp_args)?;
    lower(pre, file_name, Some(text.to_string()), opts)
}

/// Parses and lowers already preprocessed text (no comments, `#` line markers allowed).
pub fn lower_preprocessed(
    text: String,
    file_name: &str,
    opts: &FrontendOptions,
) -> Result<Lowered, FrontendError> {
    lower(text, file_name, None, opts)
}

/// The stack of the front end's thread: parsing and lowering recurse over the syntax tree.
const FRONTEND_STACK: usize = 512 << 20;

/// Parses and lowers preprocessed text; `original` is the main file's text when the file is
/// not on disk under `file_name`.
fn lower(
    text: String,
    file_name: &str,
    original: Option<String>,
    opts: &FrontendOptions,
) -> Result<Lowered, FrontendError> {
    // Parsing and lowering recurse over the syntax tree: run them on a thread with a large
    // stack, and turn a panic (a bug) into an error rather than a crash.
    let name = file_name.to_string();
    let opts2 = opts.clone();
    let handle = std::thread::Builder::new()
        .name("bitmc-frontend".into())
        .stack_size(FRONTEND_STACK)
        .spawn(move || -> Result<Lowered, FrontendError> {
            let (parsed, map) = parse::parse(text, &name, original.as_deref())?;
            let mut lowered = unit::lower_unit(&parsed.unit, &map, &opts2)?;
            lowered.cfa = cfa::remove_unreachable(&lowered.cfa);
            if opts2.lbe {
                lowered.cfa = cfa::large_block_encoding(&lowered.cfa);
            }
            Ok(lowered)
        })
        .map_err(|e| {
            FrontendError::OutOfMemory(format!(
                "no room for its thread with a stack of {} MB: {e}",
                FRONTEND_STACK >> 20
            ))
        })?;
    match handle.join() {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            Err(FrontendError::Internal(msg))
        }
    }
}
