//! Random C programs and the checks run on them, shared by the random-program tests.
//!
//! - [`expr`]: pure expressions over a [`scope::Scope`], and the straight-line integer
//!   programs of the interpreter-against-gcc test;
//! - [`program`]: programs with pointers (views of the same width, `void *`, address-only
//!   pointers), arrays and matrices passed to functions, casts, state machines, `goto`, bounded
//!   loops, many nondet calls and `reach_error()` under random conditions;
//! - [`gnu`]: programs with brace elision, gcc builtins, C library functions and calls whose
//!   arguments have side effects;
//! - [`walks`]: programs with general pointers (assigned, moved, compared, subtracted,
//!   walked over arrays, pointers to pointers);
//! - [`bytes`]: programs that view objects as bytes and words, with `memset`, `memcpy` and
//!   `memmove`, and unions ([`unions`]: pointer and `_Bool` members, arrays of unions);
//! - [`oracle`]: gcc with the fixtures' harness;
//! - [`check`]: each program against gcc, and every engine against gcc and each other.
#![allow(dead_code)]

pub mod bytes;
pub mod check;
pub mod expr;
pub mod gnu;
pub mod oracle;
pub mod program;
pub mod scope;
pub mod structs;
pub mod unions;
pub mod walks;
