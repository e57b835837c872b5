//! Random C programs with the less common C that bitmc once got wrong: arrays of two or three
//! dimensions with initialiser lists that elide braces, brace scalars and use designators;
//! gcc builtins (`__builtin_popcount`, `clz`, `ctz`, `ffs`, `clrsb`, `parity`, `bswap`, the
//! overflow builtins) and C library functions (`abs`, `<ctype.h>`); calls whose arguments
//! call functions with side effects on different globals (so that every evaluation order gives
//! the same result); `_Alignof` and `sizeof` of arrays and comma expressions.
//!
//! The result of an overflow builtin is read in a statement after the call: in the same
//! expression its store and the read would be unsequenced (bitmc answers UNKNOWN there).
//!
//! Like [`super::program`], programs have no undefined behaviour under `-fwrapv` (arguments of
//! `clz`/`ctz` are made nonzero, of `abs` never the minimum, of the `<ctype.h>` classifications
//! within `[-128, 255]`), and every loop is bounded.

use super::expr::Gen;
use super::program::Program;
use super::scope::{nondet_declarations, Scope, Ty, TYPES};
use bitmc::cfa::DataModel;
use std::fmt::Write;

/// The program of `seed` for data model `dm`.
pub fn generate(seed: u64, dm: DataModel) -> Program {
    let mut g = Gen::new(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1, dm);
    Program {
        src: program(&mut g),
        dm,
    }
}

const PROLOGUE: &str = "extern void reach_error(void);
int abs(int); long labs(long); long long llabs(long long);
int isalpha(int), isdigit(int), isspace(int), isupper(int), islower(int), isalnum(int),
    isxdigit(int), ispunct(int), isprint(int), toupper(int), tolower(int);
int ga, gb;
int put_a(int v) { ga = ga * 3 + v; return ga; }
int put_b(int v) { gb = v - gb; return gb + 1; }
int pair(int x, int y) { return x - 2 * y; }
";

fn program(g: &mut Gen) -> String {
    let mut out = format!("{PROLOGUE}{}", nondet_declarations());
    let mut globals = Scope::default();
    let mut arrays = String::new();
    for _ in 0..g.range(1, 2) {
        arrays.push_str(&array(g, &mut globals, ""));
    }
    out.push_str(&arrays);
    out.push_str("int main(void) {\n");
    let mut sc = globals.clone();
    for _ in 0..g.range(2, 3) {
        let (t, name) = (g.ty(), g.fresh("x"));
        let _ = writeln!(
            out,
            "  {} {name} = __VERIFIER_nondet_{}();",
            t.c(),
            t.nondet()
        );
        sc.add_var(name, t);
    }
    if g.one_in(2) {
        out.push_str(&array(g, &mut sc, "  "));
    }
    let mut results = Vec::new();
    for _ in 0..g.range(2, 5) {
        let (decl, name) = statement(g, &sc);
        out.push_str(&decl);
        results.push(name);
    }
    for r in &results {
        sc.add_var(r.clone(), Ty(int_ty()));
    }
    for _ in 0..g.range(1, 2) {
        let c = g.cond(&sc);
        let _ = writeln!(out, "  if ({c})\n    reach_error();");
    }
    out.push_str("  return 0;\n}\n");
    out
}

/// The index of `int` in [`TYPES`].
fn int_ty() -> usize {
    TYPES.iter().position(|t| t.c == "int").unwrap_or(0)
}

/// An array of two or three dimensions with a random initialiser list.
fn array(g: &mut Gen, sc: &mut Scope, indent: &str) -> String {
    let t = loop {
        let t = g.ty();
        if t.c() != "_Bool" {
            break t;
        }
    };
    let name = g.fresh("m");
    let ndims = g.range(2, 3) as usize;
    let dims: Vec<u64> = (0..ndims).map(|_| g.range(1, 3)).collect();
    let mut init = String::new();
    let mut budget = dims.iter().product::<u64>() + 2;
    braced(g, &dims, &mut init, &mut budget);
    let shown: String = dims.iter().map(|d| format!("[{d}]")).collect();
    sc.add_array(name.clone(), t, dims);
    format!("{indent}{} {name}{shown} = {init};\n", t.c())
}

/// A brace-enclosed list for an aggregate of dimensions `dims`: items are bare values (brace
/// elision), braced sublists for the next subaggregate, braced scalars and designators.
fn braced(g: &mut Gen, dims: &[u64], out: &mut String, budget: &mut u64) {
    out.push('{');
    let n = dims[0];
    let scalars_per: u64 = dims[1..].iter().product();
    let mut pos: u64 = 0;
    let mut first = true;
    // At least one item; never more than the list can take.
    while pos < n && (first || (*budget > 0 && !g.one_in(4))) {
        if !first {
            out.push_str(", ");
        }
        first = false;
        *budget = budget.saturating_sub(1);
        if g.one_in(5) {
            // A designator for this list's level.
            pos = g.rng.below(n);
            let _ = write!(out, "[{pos}] = ");
        }
        if dims.len() > 1 && g.one_in(2) {
            braced(g, &dims[1..], out, budget);
        } else if dims.len() == 1 && g.one_in(6) {
            let _ = write!(out, "{{{}}}", g.small());
        } else if dims.len() > 1 {
            // Bare values: brace elision fills the next subaggregate from this list. The list
            // ends after them unless they fill it exactly.
            let take = g.range(1, scalars_per);
            for k in 0..take {
                let sep = if k == 0 { "" } else { ", " };
                let _ = write!(out, "{sep}{}", g.small());
            }
            if take < scalars_per {
                break;
            }
        } else {
            let _ = write!(out, "{}", g.small());
        }
        pos += 1;
    }
    out.push('}');
}

/// A statement `int rN = …;` over the scope; returns it and the name it declares.
fn statement(g: &mut Gen, sc: &Scope) -> (String, String) {
    let name = g.fresh("r");
    let e = |g: &mut Gen| g.expr(sc, 1);
    let value = match g.rng.below(9) {
        0 => format!("pair(put_a({}), put_b({}))", e(g), e(g)),
        1 => format!("put_a({}) + put_b({})", e(g), e(g)),
        2 => {
            let (f, ty) = *g.pick(&[
                ("__builtin_popcount", "unsigned"),
                ("__builtin_parity", "unsigned"),
                ("__builtin_popcountll", "unsigned long long"),
                ("__builtin_clrsb", "int"),
                ("__builtin_ffs", "int"),
                ("__builtin_ffsll", "long long"),
                ("__builtin_bswap16", "unsigned short"),
                ("__builtin_bswap32", "unsigned"),
                ("__builtin_bswap64", "unsigned long long"),
            ]);
            format!("(int){f}(({ty})({}))", e(g))
        }
        3 => {
            let (f, one) = *g.pick(&[
                ("__builtin_clz", "1u"),
                ("__builtin_ctz", "1u"),
                ("__builtin_clzll", "1ull"),
                ("__builtin_ctzl", "1ul"),
            ]);
            format!("{f}(({}) | {one})", e(g))
        }
        4 => {
            let f = *g.pick(&["abs", "labs", "llabs"]);
            format!("(int){f}((int)({}) % 100000)", e(g))
        }
        5 => {
            let f = *g.pick(&[
                "isalpha", "isdigit", "isspace", "isupper", "islower", "isalnum", "isxdigit",
                "ispunct", "isprint", "toupper", "tolower",
            ]);
            format!("{f}((int)({}) % 128 + 64)", e(g))
        }
        6 => {
            let op = *g.pick(&["add", "sub", "mul"]);
            let rt = *g.pick(&["int", "unsigned char", "long long", "unsigned", "short"]);
            return (
                format!(
                    "  {rt} {name}_v;\n  int {name}_o = __builtin_{op}_overflow(({at})({}), ({bt})({}), &{name}_v);\n  int {name} = {name}_o * 1000 + (int)({name}_v & 255);\n",
                    e(g),
                    e(g),
                    at = g.pick(&["int", "unsigned", "long long", "unsigned char"]),
                    bt = g.pick(&["int", "short", "unsigned long long", "long"])
                ),
                name,
            );
        }
        7 => match sc.arrays.first() {
            Some(a) => format!(
                "(int)(sizeof(0, {n}) + _Alignof({t}[2]) + sizeof {n}[0])",
                n = a.name,
                t = a.ty.c()
            ),
            None => "(int)_Alignof(long long)".to_string(),
        },
        _ => match sc.arrays.len() {
            0 => e(g),
            k => {
                let i = g.rng.below(k as u64) as usize;
                g.element(sc, i)
            }
        },
    };
    (format!("  int {name} = {value};\n"), name)
}
