//! The union parts of the byte-view programs ([`super::bytes`]): a union with pointer members
//! (`int *`, `unsigned char *`, a function pointer), an integer of the pointer's size, a `_Bool`
//! and an `unsigned char`, kept as a local or as an element of an array of such unions, copied
//! whole; an array of unions of bytes, a word and a structure at subscripts computed from
//! nondet values; and an array of structures with a union member.
//!
//! The generator knows what each union with pointer members holds after every statement (the
//! programs are straight-line), and reads only what gcc defines and bitmc models exactly: the
//! pointer through a pointer member after a pointer was stored (dereferenced only when it points
//! to an object), the integer after an integer or a null pointer, the `_Bool` only over a byte
//! 0 or 1, and the bytes are written in part only while they hold no pointer.

use super::expr::Gen;
use super::scope::{Scope, Ty, INT};
use std::fmt::Write;

/// What a union with pointer members holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Holds {
    /// All bytes zero (a null pointer, the integer 0).
    Zero,
    /// The address of `P0[k]`.
    Pointer(u64),
    /// An integer written through `n`, its value unknown to the generator.
    Integer,
    /// The low byte 0 or 1 (written through `c` or `b`), the other bytes zero or an integer's.
    Flag,
    /// The function `pf0` or `pf1`.
    Function(u64),
}

/// The unions of a program and what the two unions with pointer members hold.
pub struct Unions {
    /// The C names of the two unions with pointer members (locals, or elements of `pa`).
    names: [String; 2],
    holds: [Holds; 2],
    /// The types of the members `w` and `s.x` of `union U`.
    word: Ty,
    half: Ty,
}

/// The length of `P0`, `ua` and `wa`.
const N: u64 = 3;

/// Declares the types, globals and functions (before `main`).
pub fn globals(g: &mut Gen, out: &mut String) {
    out.push_str(
        "union P { int *p; unsigned char *q; unsigned long n; _Bool b; unsigned char c; int (*f)(int); };\n",
    );
    out.push_str("struct W { char t; union U u; short k; };\n");
    let items: Vec<String> = (0..N).map(|_| g.small()).collect();
    let _ = writeln!(out, "int P0[{N}] = {{{}}};", items.join(", "));
    out.push_str("int pf0(int v) { return v ^ 5; }\nint pf1(int v) { return v & 12; }\n");
}

/// Declares the locals (at the start of `main`) and adds what conditions may read to `sc`.
pub fn locals(g: &mut Gen, out: &mut String, sc: &mut Scope, un: u64, [uw, ux]: [Ty; 2]) -> Unions {
    let names = if g.one_in(2) {
        out.push_str("  union P pu = {0};\n  union P pu2 = {0};\n");
        ["pu".to_string(), "pu2".to_string()]
    } else {
        let _ = writeln!(out, "  union P pa[{N}] = {{0}};");
        let i = g.rng.below(N);
        let j = (i + 1 + g.rng.below(N - 1)) % N;
        [format!("pa[{i}]"), format!("pa[{j}]")]
    };
    let _ = writeln!(
        out,
        "  union U ua[{N}] = {{0}};\n  struct W wa[{N}] = {{0}};"
    );
    sc.add_array("P0".into(), INT, vec![N]);
    for k in 0..N {
        sc.add_array(format!("ua[{k}].b"), Ty(3), vec![un]);
        sc.add_var(format!("wa[{k}].u.w"), uw);
    }
    Unions {
        names,
        holds: [Holds::Zero; 2],
        word: uw,
        half: ux,
    }
}

/// A subscript of `ua` or `wa` computed from `e`, always in range.
fn index(e: &str) -> String {
    format!("(unsigned)({e}) % {N}")
}

/// One statement over the unions; results go to new `int` variables `r<k>`.
pub fn stmt(g: &mut Gen, u: &mut Unions, sc: &mut Scope, out: &mut String, results: &mut usize) {
    let e = g.expr(sc, 1);
    let mut result = |out: &mut String, sc: &mut Scope, value: String| {
        let r = format!("r{}", *results);
        *results += 1;
        let _ = writeln!(out, "  int {r} = {value};");
        sc.add_var(r, INT);
    };
    let which = g.rng.below(2) as usize;
    let name = u.names[which].clone();
    match g.rng.below(6) {
        0 => write_member(g, u, which, &e, out),
        1 | 2 => {
            let v = read_member(g, u.holds[which], &name, &e);
            result(out, sc, v);
        }
        3 => {
            let _ = writeln!(out, "  {} = {name};", u.names[1 - which]);
            u.holds[1 - which] = u.holds[which];
        }
        // An element of the array of unions written through one member, read through another.
        4 => {
            let i = index(&e);
            let m = *g.pick(&["w", "s.x", "s.y", "b[1]"]);
            let _ = writeln!(out, "  ua[{i}].{m} = {e};");
            // The low byte of a value written whole, checked (gcc never reaches the error).
            let (m, t) = *g.pick(&[("w", u.word), ("s.x", u.half)]);
            let (ix, v) = (g.fresh("ix"), g.fresh("v"));
            let _ = writeln!(
                out,
                "  unsigned {ix} = {i};\n  {0} {v} = ({0})({1});\n  ua[{ix}].{m} = {v};\n  if (ua[{ix}].b[0] != (unsigned char){v})\n    reach_error();",
                t.c(),
                g.expr(sc, 1)
            );
            let j = if g.one_in(2) {
                i
            } else {
                index(&g.expr(sc, 1))
            };
            let m = *g.pick(&["w", "s.x", "s.y", "b[0]", "b[2]"]);
            if g.one_in(2) {
                result(out, sc, format!("(int)ua[{j}].{m}"));
            } else {
                // A counterexample states the value: replayed on gcc, it reaches the error
                // only if the element's bytes are gcc's.
                let _ = writeln!(
                    out,
                    "  if (ua[{j}].{m} == __VERIFIER_nondet_uchar())\n    reach_error();"
                );
            }
        }
        // A union inside an element of an array of structures, written, copied and read.
        _ => {
            let i = index(&e);
            let m = *g.pick(&["w", "s.x", "b[3]"]);
            let _ = writeln!(out, "  wa[{i}].u.{m} = {e};");
            if g.one_in(2) {
                let k = g.rng.below(N);
                let _ = writeln!(out, "  wa[{k}].u = ua[{}];", g.rng.below(N));
            }
            let m = *g.pick(&["w", "s.y", "b[0]"]);
            result(out, sc, format!("(int)wa[{}].u.{m}", g.rng.below(N)));
        }
    }
}

/// A store through a member of union `which`, and what it then holds.
fn write_member(g: &mut Gen, u: &mut Unions, which: usize, e: &str, out: &mut String) {
    let name = &u.names[which];
    // Part of the bytes of a stored pointer is not written over.
    let partial_ok = !matches!(u.holds[which], Holds::Pointer(_) | Holds::Function(_));
    let (text, holds) = match g.rng.below(6) {
        0 => {
            let k = g.rng.below(N);
            (format!("{name}.p = &P0[{k}]"), Holds::Pointer(k))
        }
        1 => {
            let k = g.rng.below(N);
            (
                format!("{name}.q = (unsigned char *)&P0[{k}]"),
                Holds::Pointer(k),
            )
        }
        2 => (format!("{name}.n = (unsigned long)({e})"), Holds::Integer),
        3 if partial_ok => (format!("{name}.b = {e}"), Holds::Flag),
        3 | 4 if partial_ok => (format!("{name}.c = ({e}) & 1"), Holds::Flag),
        4 => (format!("{name}.p = 0"), Holds::Zero),
        _ => {
            let k = g.rng.below(2);
            (format!("{name}.f = pf{k}"), Holds::Function(k))
        }
    };
    let _ = writeln!(out, "  {text};");
    u.holds[which] = holds;
}

/// A read of union `name` that gcc defines and bitmc models exactly, given what it holds.
fn read_member(g: &mut Gen, holds: Holds, name: &str, e: &str) -> String {
    match holds {
        Holds::Pointer(_) => match g.rng.below(4) {
            0 => format!("*{name}.p + ({e})"),
            1 => format!("{name}.q[{}]", g.rng.below(4)),
            2 => format!("{name}.p == &P0[{}]", g.rng.below(N)),
            // Written through, so that later conditions on `P0` see it.
            _ => format!("(*{name}.p = ({e})) != 0"),
        },
        Holds::Zero => match g.rng.below(3) {
            0 => format!("{name}.p == 0"),
            1 => format!("(int){name}.n + {name}.b"),
            _ => format!("{name}.f == 0"),
        },
        Holds::Integer => match g.rng.below(3) {
            0 => format!("(int)({name}.n >> 3) ^ ({e})"),
            1 => format!("{name}.p == 0"),
            _ => format!("{name}.c"),
        },
        Holds::Flag => match g.rng.below(2) {
            0 => format!("{name}.b + {name}.c"),
            _ => format!("(int){name}.n"),
        },
        Holds::Function(_) => format!("{name}.f({e})"),
    }
}

/// A final check whose counterexample states the integer a union holds, when it holds one.
pub fn final_check(g: &mut Gen, u: &Unions, out: &mut String) {
    let which = g.rng.below(2) as usize;
    if matches!(u.holds[which], Holds::Integer | Holds::Flag | Holds::Zero) {
        let _ = writeln!(
            out,
            "  if ({}.n == __VERIFIER_nondet_ulong())\n    reach_error();",
            u.names[which]
        );
    }
}
