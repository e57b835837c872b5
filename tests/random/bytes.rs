//! Random C programs that view objects as bytes: a scalar, an array and a structure read and
//! written through `unsigned char *` and `signed char *`, an array of bytes read and written as
//! `unsigned short`, `unsigned int` and `unsigned long long` words, and `memset`, `memcpy` and
//! `memmove` over scalars, arrays and structures (a structure's padding set and copied too;
//! the bytes of the arrays read and written as the members of a structure of two integers
//! through a pointer to it, `((struct V *)C)[j].q`;
//! `memmove` and `memcmp` also of a size that depends on an input, which is a loop),
//! `memcmp` of two of them (its sign: glibc's value is -1 or 1 on i386 and the difference of
//! the first differing bytes on x86-64, gcc's folding of constants gives -1 or 1, the C
//! standard fixes only the sign); an array of bytes as a string, its `strlen`, the signs of a
//! `strcmp` and a `strncmp`, and where `strchr` finds a byte; a
//! union of bytes, an integer and a structure, its members written and read in any order,
//! copied, set by `memset` and written through a pointer to a member; unions with pointer and
//! `_Bool` members, arrays of unions and unions in arrays of structures ([`super::unions`]).
//!
//! No undefined behaviour under `-fwrapv`: every byte index is inside its object, the arrays are
//! aligned for the widest view (`_Alignas(8)`), word views stay inside the byte array, no byte
//! of a structure is read through a byte pointer (its padding has no value), `memcpy` never
//! copies between overlapping bytes, and every byte of the union is initialised (its first
//! member is an array of all its bytes).

use super::expr::Gen;
use super::program::Program;
use super::scope::{nondet_declarations, Scope, Ty};
use super::unions;
use bitmc::cfa::DataModel;
use std::fmt::Write;

/// The program of `seed` for data model `dm`.
pub fn generate(seed: u64, dm: DataModel) -> Program {
    let mut g = Gen::new(seed.wrapping_mul(0xA24B_AED4_963E_E407) | 1, dm);
    Program {
        src: program(&mut g, dm),
        dm,
    }
}

/// Any integer type but `_Bool` (whose bytes have no view).
fn int_ty(g: &mut Gen) -> Ty {
    loop {
        let t = g.ty();
        if t.c() != "_Bool" {
            return t;
        }
    }
}

/// An integer type of at most four bytes in `dm`, not `_Bool`.
fn small_ty(g: &mut Gen, dm: DataModel) -> Ty {
    loop {
        let t = int_ty(g);
        if t.width(dm) <= 32 {
            return t;
        }
    }
}

/// What the statements may touch.
struct Objects {
    /// The scalar `x` and its size in bytes.
    x: (Ty, u64),
    /// The array `A`: its element type and length.
    a: (Ty, u64),
    /// The byte array `C` and its length (a multiple of 8).
    c: u64,
    /// The structure `s`'s members (`s2` has the same type).
    members: [Ty; 3],
    /// The union `uu`'s integer member, its structure's two members, and its size.
    union: (Ty, [Ty; 2], u64),
    /// The members of `struct V`, which views the arrays' bytes (at most four bytes each).
    view: [Ty; 2],
}

impl Objects {
    /// `sizeof(struct V)` (each member's alignment is its size, at most four bytes).
    fn view_size(&self, dm: DataModel) -> u64 {
        let [p, q] = self.view.map(|t| u64::from(t.width(dm) / 8));
        let at = p.div_ceil(q) * q;
        let align = p.max(q);
        (at + q).div_ceil(align) * align
    }
}

fn program(g: &mut Gen, dm: DataModel) -> String {
    let size = |t: Ty| u64::from(t.width(dm) / 8);
    let objs = Objects {
        x: {
            let t = int_ty(g);
            (t, size(t))
        },
        a: (int_ty(g), g.range(2, 5)),
        c: 8 * g.range(1, 2),
        members: [int_ty(g), int_ty(g), int_ty(g)],
        // Eight bytes cover an integer and a structure of two integers of at most four bytes.
        union: (int_ty(g), [small_ty(g, dm), small_ty(g, dm)], 8),
        view: [small_ty(g, dm), small_ty(g, dm)],
    };
    let mut sc = Scope::default();
    let mut out = format!(
        "#include <string.h>\nextern void reach_error(void);\n{}",
        nondet_declarations()
    );
    let [m0, m1, m2] = objs.members;
    let _ = writeln!(
        out,
        "struct B {{ {} a; {} b; {} c; }};",
        m0.c(),
        m1.c(),
        m2.c()
    );
    let [v0, v1] = objs.view;
    let _ = writeln!(out, "struct V {{ {} p; {} q; }};", v0.c(), v1.c());
    let items: Vec<String> = (0..objs.a.1).map(|_| g.small()).collect();
    let _ = writeln!(
        out,
        "_Alignas(8) {} A[{}] = {{{}}};",
        objs.a.0.c(),
        objs.a.1,
        items.join(", ")
    );
    sc.add_array("A".into(), objs.a.0, vec![objs.a.1]);
    let bytes: Vec<String> = (0..objs.c).map(|_| g.rng.below(256).to_string()).collect();
    let _ = writeln!(
        out,
        "_Alignas(8) unsigned char C[{}] = {{{}}};",
        objs.c,
        bytes.join(", ")
    );
    sc.add_array("C".into(), Ty(3), vec![objs.c]);
    let (uw, [ux, uy], un) = objs.union;
    let _ = writeln!(
        out,
        "union U {{ unsigned char b[{un}]; {} w; struct {{ {} x; {} y; }} s; }};",
        uw.c(),
        ux.c(),
        uy.c()
    );
    unions::globals(g, &mut out);
    out.push_str("int main(void) {\n");
    out.push_str("  union U uu = {0};\n  union U uu2 = {0};\n");
    let mut pointer_unions = unions::locals(g, &mut out, &mut sc, un, [uw, ux]);
    for u in ["uu", "uu2"] {
        sc.add_array(format!("{u}.b"), Ty(3), vec![un]);
        sc.add_var(format!("{u}.w"), uw);
        sc.add_var(format!("{u}.s.x"), ux);
        sc.add_var(format!("{u}.s.y"), uy);
    }
    let (xt, _) = objs.x;
    let _ = writeln!(out, "  {} x = __VERIFIER_nondet_{}();", xt.c(), xt.nondet());
    sc.add_var("x".into(), xt);
    let _ = writeln!(
        out,
        "  struct B s = {{__VERIFIER_nondet_{}(), __VERIFIER_nondet_{}(), {}}};",
        m0.nondet(),
        m1.nondet(),
        g.small()
    );
    out.push_str("  struct B s2 = {0, 0, 0};\n");
    for (m, t) in ["a", "b", "c"].iter().zip(objs.members) {
        sc.add_var(format!("s.{m}"), t);
        sc.add_var(format!("s2.{m}"), t);
    }
    let mut results = 0;
    for _ in 0..g.range(3, 10) {
        if g.one_in(2) {
            unions::stmt(g, &mut pointer_unions, &mut sc, &mut out, &mut results);
        } else {
            stmt(g, &objs, &mut sc, &mut out, &mut results, dm);
        }
    }
    if g.one_in(2) {
        // `C` as a string (its last byte 0, another byte given a value that may be 0): its
        // length and the sign of a comparison from two positions.
        let n = objs.c;
        let e = g.expr(&sc, 1);
        let _ = writeln!(
            out,
            "  C[{}] = 0;\n  C[{}] = (unsigned char)({e});",
            n - 1,
            g.rng.below(n - 1)
        );
        let (i, j) = (g.index(&sc, n), g.rng.below(n));
        let (r, q) = (g.fresh("len"), g.fresh("cmp"));
        let (m, f) = (g.fresh("ncmp"), g.fresh("at"));
        let (k, c) = (g.rng.below(n + 2), g.expr(&sc, 1));
        let _ = writeln!(
            out,
            "  int {r} = (int)strlen((char *)C + {i});\n  int {q} = strcmp((char *)C + {i}, (char *)C + {j});\n  {q} = ({q} > 0) - ({q} < 0);"
        );
        // `strncmp` of at most `k` bytes (up to two past the array: it stops at the null
        // character before), and where `strchr` finds a byte (-1 for null).
        let _ = writeln!(
            out,
            "  int {m} = strncmp((char *)C + {j}, (char *)C + {i}, {k});\n  {m} = ({m} > 0) - ({m} < 0);\n  char *{f}p = strchr((char *)C + {i}, {c});\n  int {f} = {f}p ? (int)({f}p - (char *)C) : -1;"
        );
        // The length, the signs and the place stated, so that a counterexample depends on them.
        let _ = writeln!(
            out,
            "  if ({r} == {} || {q} == {} || ({m} == {} && {f} == {}))\n    reach_error();",
            g.rng.below(n),
            g.pick(&[-1, 0, 1]),
            g.pick(&[-1, 0, 1]),
            g.rng.below(n + 1) as i64 - 1
        );
        sc.add_var(r, Ty(6));
        sc.add_var(q, Ty(6));
        sc.add_var(m, Ty(6));
        sc.add_var(f, Ty(6));
    }
    if g.one_in(3) {
        unions::final_check(g, &pointer_unions, &mut out);
    }
    if g.one_in(3) {
        // A value of the union's bytes as a counterexample must state it: replayed on gcc, it
        // reaches the error only if bitmc's byte order and layout are gcc's.
        let (m, t) = *g.pick(&[("w", uw), ("s.x", ux), ("s.y", uy)]);
        let _ = writeln!(
            out,
            "  if (uu.{m} == ({0})__VERIFIER_nondet_{1}())\n    reach_error();",
            t.c(),
            t.nondet()
        );
    }
    for _ in 0..g.range(1, 2) {
        let c = g.cond(&sc);
        let _ = writeln!(out, "  if ({c})\n    reach_error();");
    }
    out.push_str("  return 0;\n}\n");
    out
}

/// A byte object a statement may view: its C expression as a pointer and its size.
fn byte_object(g: &mut Gen, o: &Objects, dm: DataModel) -> (String, u64) {
    let a = u64::from(o.a.0.width(dm) / 8) * o.a.1;
    match g.rng.below(3) {
        0 => ("&x".into(), o.x.1),
        1 => ("A".into(), a),
        _ => ("C".into(), o.c),
    }
}

fn stmt(
    g: &mut Gen,
    o: &Objects,
    sc: &mut Scope,
    out: &mut String,
    results: &mut usize,
    dm: DataModel,
) {
    let e = g.expr(sc, 1);
    match g.rng.below(12) {
        // A member of a structure over the bytes of an array, written or read.
        11 => view_member(g, o, sc, out, results, dm, &e),
        // A member of the union written, directly or through a pointer to it.
        8 => {
            let (uw, [ux, uy], _) = o.union;
            let (m, t) = *g.pick(&[("w", uw), ("s.x", ux), ("s.y", uy)]);
            if g.one_in(2) {
                let _ = writeln!(out, "  uu.{m} = {e};");
            } else {
                let _ = writeln!(out, "  *&uu.{m} = ({})({e});", t.c());
            }
        }
        // The union copied, or set by memset.
        9 => {
            if g.one_in(2) {
                out.push_str("  uu2 = uu;\n");
            } else {
                let _ = writeln!(out, "  memset(&uu, (int)({e}), sizeof uu);");
            }
        }
        // A byte written through a byte pointer.
        0 | 1 => {
            let (p, n) = byte_object(g, o, dm);
            let k = g.rng.below(n);
            let _ = writeln!(out, "  ((unsigned char *){p})[{k}] = (unsigned char)({e});");
        }
        // A byte read, as unsigned or signed.
        2 => {
            let (p, n) = byte_object(g, o, dm);
            let k = g.rng.below(n);
            let view = if g.one_in(2) {
                "signed char"
            } else {
                "unsigned char"
            };
            let r = format!("r{}", *results);
            *results += 1;
            let _ = writeln!(out, "  int {r} = ((const {view} *){p})[{k}] + (int)({e});");
            sc.add_var(r, Ty(6));
        }
        // A word of the byte array, written or read.
        3 => {
            let (ty, size) = *g.pick(&[
                ("unsigned short", 2),
                ("unsigned int", 4),
                ("unsigned long long", 8),
            ]);
            let j = g.rng.below(o.c / size);
            if g.one_in(2) {
                let _ = writeln!(out, "  (({ty} *)C)[{j}] = ({ty})({e});");
            } else {
                let r = format!("r{}", *results);
                *results += 1;
                let _ = writeln!(out, "  {ty} {r} = (({ty} *)C)[{j}] ^ ({ty})({e});");
                let t = match size {
                    2 => Ty(5),
                    4 => Ty(7),
                    _ => Ty(11),
                };
                sc.add_var(r, t);
            }
        }
        // memset of an object, part of the array, or the structure (its padding too).
        4 => {
            let n = o.a.1;
            let target = match g.rng.below(4) {
                0 => "&x, {e}, sizeof x".to_string(),
                1 => {
                    let i = g.rng.below(n);
                    let k = g.rng.below(n - i + 1);
                    format!("A + {i}, {{e}}, {k} * sizeof(A[0])")
                }
                2 => "&s, {e}, sizeof s".to_string(),
                _ => "C, {e}, sizeof C".to_string(),
            };
            let _ = writeln!(
                out,
                "  memset({});",
                target.replace("{e}", &format!("(int)({e})"))
            );
        }
        // A structure copied whole, bytes copied between the arrays, the array moved by one.
        5 => match g.rng.below(3) {
            0 => out.push_str("  memcpy(&s2, &s, sizeof s);\n"),
            1 => {
                let a = u64::from(o.a.0.width(dm) / 8) * o.a.1;
                let k = g.rng.below(a.min(o.c) + 1);
                let (d, s) = if g.one_in(2) { ("A", "C") } else { ("C", "A") };
                let _ = writeln!(out, "  memcpy({d}, {s}, {k});");
            }
            _ => {
                let k = o.a.1 - 1;
                let (d, s) = if g.one_in(2) {
                    ("A + 1", "A")
                } else {
                    ("A", "A + 1")
                };
                // Of the whole array but one element, or of an input's share of it (a loop).
                let k = if g.one_in(2) {
                    k.to_string()
                } else {
                    format!("((unsigned char)x % {})", k + 1)
                };
                let _ = writeln!(out, "  memmove({d}, {s}, {k} * sizeof(A[0]));");
            }
        },
        // A member or the scalar assigned, so that later views see new values.
        6 => {
            let m = *g.pick(&["s.a", "s.b", "s.c", "x"]);
            let _ = writeln!(out, "  {m} = {e};");
        }
        // Two objects' first bytes compared.
        10 => {
            let (p, n) = byte_object(g, o, dm);
            let (q, m) = loop {
                let other = byte_object(g, o, dm);
                if other.0 != p {
                    break other;
                }
            };
            let k = 1 + g.rng.below(n.min(m));
            // A constant size (unrolled), or one that depends on an input (a loop).
            let k = if g.one_in(2) {
                k.to_string()
            } else {
                format!("(unsigned char)x % {}", k + 1)
            };
            let r = format!("r{}", *results);
            *results += 1;
            let _ = writeln!(out, "  int {r} = memcmp({p}, {q}, {k});");
            let _ = writeln!(out, "  {r} = ({r} > 0) - ({r} < 0);");
            // The sign stated, so that a counterexample depends on it.
            let sign = *g.pick(&[-1, 0, 1]);
            let _ = writeln!(out, "  if ({r} == {sign})\n    reach_error();");
            sc.add_var(r, Ty(6));
        }
        // The scalar's bytes copied into the array or back.
        _ => {
            let k = o.x.1.min(o.c);
            if g.one_in(2) {
                let _ = writeln!(out, "  memcpy(C, &x, {k});");
            } else {
                let _ = writeln!(out, "  memcpy(&x, C, {k});");
            }
        }
    }
}

/// A member of an element of `struct V` laid over `C` or `A` (aligned for it: both arrays are
/// `_Alignas(8)`, and the element lies inside the array), written or read.
fn view_member(
    g: &mut Gen,
    o: &Objects,
    sc: &mut Scope,
    out: &mut String,
    results: &mut usize,
    dm: DataModel,
    e: &str,
) {
    let size = o.view_size(dm);
    let a = u64::from(o.a.0.width(dm) / 8) * o.a.1;
    let (arr, n) = if a >= size && g.one_in(2) {
        ("A", a)
    } else {
        ("C", o.c)
    };
    let j = g.rng.below(n / size);
    let (m, t) = *g.pick(&[("p", o.view[0]), ("q", o.view[1])]);
    let place = if j == 0 && g.one_in(2) {
        format!("((struct V *){arr})->{m}")
    } else {
        format!("((struct V *){arr})[{j}].{m}")
    };
    if g.one_in(2) {
        let _ = writeln!(out, "  {place} = ({})({e});", t.c());
    } else {
        let r = format!("r{}", *results);
        *results += 1;
        let _ = writeln!(out, "  {} {r} = {place} ^ ({})({e});", t.c(), t.c());
        sc.add_var(r, t);
    }
}
