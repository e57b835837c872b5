//! Random C programs with structures: structure types with integer, array and nested
//! structure members; global and local structures and arrays of structures with initialiser
//! lists (positional, designated, with brace elision); member reads and writes with constant
//! and symbolic indices; whole-structure copies by assignment, by argument and by return
//! value; pointers to structures passed to functions that write through them, and pointers
//! given one of two structures' addresses, members (bit-fields too) written and read through
//! them; `sizeof` and
//! `_Alignof` of structure types (their layout differs between ILP32 and LP64); a function
//! pointer given one of two functions and called through a callback; function pointers in a
//! structure, in an array of structures and in an array, assigned, copied and called; an array
//! of pointers in a structure, its elements given addresses, written through, copied with the
//! structure and read through a pointer to it; bit-fields, signed and unsigned, of every width,
//! named and unnamed (their stores truncate, their reads sign-extend, and they shape the
//! layout).
//!
//! Like [`super::program`], programs have no undefined behaviour under `-fwrapv` (indices are
//! reduced into range) and no loops.

use super::expr::Gen;
use super::program::Program;
use super::scope::{nondet_declarations, Scope, Ty, TYPES};
use bitmc::cfa::DataModel;
use std::fmt::Write;

/// The program of `seed` for data model `dm`.
pub fn generate(seed: u64, dm: DataModel) -> Program {
    let mut g = Gen::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, dm);
    Program {
        src: program(&mut g),
        dm,
    }
}

/// A member of a generated structure type.
#[derive(Clone)]
enum Field {
    Scalar(Ty),
    Array(Ty, u64),
    Nested(usize),
    /// A bit-field of an integer type, with its width (of `long` and `long long` at most 32
    /// bits, or 64 of `long long`); unnamed ones (padding,
    /// or width 0 to the next unit) are not members.
    Bits(Ty, u32),
    Unnamed(Ty, u32),
}

/// A generated structure type: `struct S<k>`.
struct StructTy {
    fields: Vec<(String, Field)>,
}

/// The scalar (non-`_Bool`) integer type of a member.
fn member_ty(g: &mut Gen) -> Ty {
    loop {
        let t = g.ty();
        if t.c() != "_Bool" {
            return t;
        }
    }
}

/// The scalar and array members of an object of structure `k` called `path`, added to the
/// scope.
fn add_members(types: &[StructTy], k: usize, path: &str, sc: &mut Scope) {
    for (name, f) in &types[k].fields {
        let p = format!("{path}.{name}");
        match f {
            Field::Scalar(t) => sc.add_var(p, *t),
            Field::Array(t, n) => sc.add_array(p, *t, vec![*n]),
            Field::Nested(j) => add_members(types, *j, &p, sc),
            // A read of a bit-field of type `unsigned int` or wider narrower than `int` is an
            // `int`, of a `long` or `long long` of 32 bits an `int` or `unsigned int`.
            Field::Bits(t, w) if (t.c() == "unsigned int" || t.c().contains("long")) && *w < 32 => {
                sc.add_var(p, Ty(int_ty()))
            }
            Field::Bits(t, 32) if t.c().contains("long") => {
                let c = if t.c().starts_with("unsigned") {
                    "unsigned int"
                } else {
                    "int"
                };
                sc.add_var(p, Ty(TYPES.iter().position(|x| x.c == c).unwrap_or(0)))
            }
            Field::Bits(t, _) => sc.add_var(p, *t),
            Field::Unnamed(..) => {}
        }
    }
}

/// A bit-field: its type and a width that fits it (and that bitmc supports).
fn bit_field(g: &mut Gen, named: bool) -> (Ty, u32) {
    let names = [
        "_Bool",
        "char",
        "signed char",
        "unsigned char",
        "short",
        "unsigned short",
        "int",
        "unsigned int",
        "long",
        "unsigned long",
        "long long",
        "unsigned long long",
    ];
    let c = *g.pick(&names);
    let t = Ty(TYPES.iter().position(|x| x.c == c).unwrap_or(0));
    // `long` and `long long` bit-fields: at most 32 bits (the width of `long` on i386), or
    // `long long`'s whole 64.
    let max = match c {
        "_Bool" => 1,
        "char" | "signed char" | "unsigned char" => 8,
        "short" | "unsigned short" => 16,
        _ => 32,
    };
    let w = if c.contains("long long") && g.one_in(4) {
        64
    } else if named {
        g.range(1, max)
    } else {
        g.range(0, max)
    };
    (t, w as u32)
}

/// An initialiser list for structure `k`: positional items (with brace elision into nested
/// structures and arrays), braced sublists and member designators.
fn init(g: &mut Gen, types: &[StructTy], k: usize, out: &mut String) {
    out.push('{');
    let fields: Vec<&(String, Field)> = types[k]
        .fields
        .iter()
        .filter(|f| !matches!(f.1, Field::Unnamed(..)))
        .collect();
    let mut first = true;
    let mut i = 0;
    while i < fields.len() && (first || !g.one_in(4)) {
        if !first {
            out.push_str(", ");
        }
        first = false;
        if g.one_in(4) {
            i = g.rng.below(fields.len() as u64) as usize;
            let _ = write!(out, ".{} = ", fields[i].0);
        }
        match &fields[i].1 {
            Field::Scalar(_) | Field::Bits(..) => out.push_str(&g.small()),
            Field::Unnamed(..) => {}
            Field::Array(_, n) => {
                if g.one_in(3) {
                    // Brace elision: the array's elements from this list; the list ends here
                    // unless they fill it.
                    let take = g.range(1, *n);
                    for e in 0..take {
                        let sep = if e == 0 { "" } else { ", " };
                        let _ = write!(out, "{sep}{}", g.small());
                    }
                    if take < *n {
                        break;
                    }
                } else {
                    out.push('{');
                    for e in 0..g.range(1, *n) {
                        let sep = if e == 0 { "" } else { ", " };
                        let _ = write!(out, "{sep}{}", g.small());
                    }
                    out.push('}');
                }
            }
            Field::Nested(j) => init(g, types, *j, out),
        }
        i += 1;
    }
    out.push('}');
}

fn program(g: &mut Gen) -> String {
    let mut out = format!("extern void reach_error(void);\n{}", nondet_declarations());
    // Two or three structure types, each may nest an earlier one.
    let mut types: Vec<StructTy> = Vec::new();
    for k in 0..g.range(2, 3) as usize {
        let mut fields = Vec::new();
        for f in 0..g.range(1, 4) {
            let name = format!("f{f}");
            let field = match g.rng.below(8) {
                0 | 1 if k > 0 => Field::Nested(g.rng.below(k as u64) as usize),
                0 | 1 => Field::Scalar(member_ty(g)),
                2 => Field::Array(member_ty(g), g.range(1, 3)),
                3 | 4 => {
                    let (t, w) = bit_field(g, true);
                    Field::Bits(t, w)
                }
                5 if f > 0 => {
                    let (t, w) = bit_field(g, false);
                    Field::Unnamed(t, w)
                }
                _ => Field::Scalar(member_ty(g)),
            };
            fields.push((name, field));
        }
        let _ = write!(out, "struct S{k} {{");
        for (name, f) in &fields {
            let _ = match f {
                Field::Scalar(t) => write!(out, " {} {name};", t.c()),
                Field::Array(t, n) => write!(out, " {} {name}[{n}];", t.c()),
                Field::Nested(j) => write!(out, " struct S{j} {name};"),
                Field::Bits(t, w) => write!(out, " {} {name} : {w};", t.c()),
                Field::Unnamed(t, w) => write!(out, " {} : {w};", t.c()),
            };
        }
        out.push_str(" };\n");
        types.push(StructTy { fields });
    }
    let main_ty = types.len() - 1;
    // Functions over the last type: by value, by pointer, returning one.
    let _ = writeln!(
        out,
        "struct S{main_ty} copy_of(struct S{main_ty} s) {{ return s; }}"
    );
    let mut globals = Scope::default();
    let mut objects: Vec<(String, usize, Option<u64>)> = Vec::new();
    for _ in 0..g.range(1, 2) {
        let k = g.rng.below(types.len() as u64) as usize;
        let name = g.fresh("g");
        let mut list = String::new();
        init(g, &types, k, &mut list);
        if g.one_in(2) {
            let n = g.range(2, 3);
            let mut items = Vec::new();
            for _ in 0..g.range(1, n) {
                let mut s = String::new();
                init(g, &types, k, &mut s);
                items.push(s);
            }
            let _ = writeln!(out, "struct S{k} {name}[{n}] = {{{}}};", items.join(", "));
            for e in 0..n {
                add_members(&types, k, &format!("{name}[{e}]"), &mut globals);
            }
            objects.push((name, k, Some(n)));
        } else {
            let _ = writeln!(out, "struct S{k} {name} = {list};");
            add_members(&types, k, &name, &mut globals);
            objects.push((name, k, None));
        }
    }
    // A function writing a member through a pointer.
    let (setter_field, setter) = types[main_ty]
        .fields
        .iter()
        .find_map(|(n, f)| matches!(f, Field::Scalar(_) | Field::Bits(..)).then(|| n.clone()))
        .map(|n| {
            (
                Some(n.clone()),
                format!("void set(struct S{main_ty} *p, int v) {{ p->{n} = v; }}\n"),
            )
        })
        .unwrap_or((None, String::new()));
    out.push_str(&setter);
    // Two functions of one type for a function pointer.
    out.push_str("int fa(int x) { return x * 3 + 1; }\nint fb(int x) { return x ^ 0x55; }\n");
    out.push_str("int apply(int (*f)(int), int x) { return f(f(x)); }\n");
    // Function pointers in a structure type, in an array of such structures and in an array.
    out.push_str("struct Cb { int (*f)(int); int k; };\n");
    let _ = writeln!(
        out,
        "struct Cb cbs[2] = {{{{{}, 1}}, {{{}, 2}}}};\nint (*tab[2])(int) = {{{}, {}}};",
        g.pick(&["fa", "fb"]),
        g.pick(&["fa", "&fb"]),
        g.pick(&["fa", "fb"]),
        g.pick(&["&fa", "fb"])
    );
    // An array of pointers in a structure, every element given an element of `pv`.
    let _ = writeln!(
        out,
        "int pv[3] = {{{}, {}, {}}};\nstruct Pa {{ int *p[2]; int n; }} pa = {{{{&pv[{}], pv + {}}}, {}}};",
        g.range(0, 9),
        g.range(0, 9),
        g.range(0, 9),
        g.rng.below(3),
        g.rng.below(3),
        g.range(0, 9)
    );
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
    // A local structure of the last type, initialised from values or a copy.
    let local = g.fresh("l");
    let same: Vec<&(String, usize, Option<u64>)> =
        objects.iter().filter(|o| o.1 == main_ty).collect();
    if let (Some(o), true) = (same.first(), g.one_in(2)) {
        let src = match o.2 {
            Some(n) => format!("{}[{}]", o.0, g.rng.below(n)),
            None => o.0.clone(),
        };
        let _ = writeln!(out, "  struct S{main_ty} {local} = copy_of({src});");
    } else {
        let mut list = String::new();
        init(g, &types, main_ty, &mut list);
        let _ = writeln!(out, "  struct S{main_ty} {local} = {list};");
    }
    add_members(&types, main_ty, &local, &mut sc);
    let fp = g.fresh("fp");
    let _ = writeln!(out, "  int (*{fp})(int) = {};", g.pick(&["fa", "&fb", "0"]));
    objects.push((local.clone(), main_ty, None));
    let mut results = Vec::new();
    for _ in 0..g.range(3, 6) {
        let e = g.expr(&sc, 1);
        match g.rng.below(8) {
            // A member (a bit-field too) written or read through a pointer that is given
            // the address of one of two objects after its declaration (a general pointer).
            7 => {
                let same: Vec<_> = objects.iter().filter(|o| o.1 == main_ty).cloned().collect();
                let fields: Vec<String> = types[main_ty]
                    .fields
                    .iter()
                    .filter(|(_, f)| matches!(f, Field::Scalar(_) | Field::Bits(..)))
                    .map(|(n, _)| n.clone())
                    .collect();
                if !fields.is_empty() {
                    let at = |o: &(String, usize, Option<u64>), g: &mut Gen| match o.2 {
                        Some(n) => format!("{}[{}]", o.0, g.index(&sc, n)),
                        None => o.0.clone(),
                    };
                    let a = same[g.rng.below(same.len() as u64) as usize].clone();
                    let b = same[g.rng.below(same.len() as u64) as usize].clone();
                    let (x, y) = (at(&a, g), at(&b, g));
                    let f = fields[g.rng.below(fields.len() as u64) as usize].clone();
                    let (q, c) = (g.fresh("q"), g.cond(&sc));
                    let _ = writeln!(
                        out,
                        "  struct S{main_ty} *{q} = 0;\n  {q} = &{x};\n  if ({c})\n    {q} = &{y};"
                    );
                    if g.one_in(2) {
                        let _ = writeln!(out, "  {q}->{f} = {e};");
                    } else {
                        let name = g.fresh("r");
                        let _ = writeln!(out, "  int {name} = {q}->{f} + (int)({e});");
                        results.push(name);
                    }
                }
            }
            // A member written with an expression over the scope.
            0 | 1 => {
                let w = sc.writable_vars();
                if !w.is_empty() {
                    let v = w[g.rng.below(w.len() as u64) as usize].name.clone();
                    let _ = writeln!(out, "  {v} = {e};");
                }
            }
            // An element of an array of structures at a symbolic index.
            2 => {
                if let Some((name, k, Some(n))) = objects.iter().find(|o| o.2.is_some()).cloned() {
                    if let Some((f, Field::Scalar(_) | Field::Bits(..))) =
                        types[k].fields.first().cloned()
                    {
                        let ix = g.index(&sc, n);
                        let _ = writeln!(out, "  {name}[{ix}].{f} = {e};");
                    }
                }
            }
            // A whole-structure copy between objects of the same type.
            3 => {
                let same: Vec<_> = objects.iter().filter(|o| o.1 == main_ty).cloned().collect();
                let a = &same[g.rng.below(same.len() as u64) as usize];
                let b = &same[g.rng.below(same.len() as u64) as usize];
                let at = |o: &(String, usize, Option<u64>), g: &mut Gen| match o.2 {
                    Some(n) => format!("{}[{}]", o.0, g.index(&sc, n)),
                    None => o.0.clone(),
                };
                let (x, y) = (at(a, g), at(b, g));
                let _ = writeln!(out, "  {x} = {y};");
            }
            // A write through a pointer to a structure.
            4 => {
                if let Some(f) = &setter_field {
                    let _ = writeln!(out, "  set(&{local}, {e});");
                    let _ = f;
                }
            }
            // A function pointer given a function, and a call through it.
            5 if g.one_in(2) => {
                let c = g.cond(&sc);
                let f = *g.pick(&["fa", "fb", "&fa"]);
                let name = g.fresh("r");
                let _ = writeln!(out, "  if ({c})\n    {fp} = {f};");
                let _ = writeln!(out, "  int {name} = {fp} ? apply({fp}, (int)({e})) : -1;");
                results.push(name);
            }
            // Calls through the function pointers of `cbs` and `tab`, after one of them is
            // given another function or copied with its structure.
            5 => {
                let (i, j) = (g.index(&sc, 2), g.index(&sc, 2));
                let _ = match g.rng.below(3) {
                    0 => writeln!(out, "  cbs[{i}].f = tab[{j}];"),
                    1 => writeln!(out, "  tab[{j}] = {};", g.pick(&["fa", "fb"])),
                    _ => writeln!(out, "  cbs[{i}] = cbs[{j}];"),
                };
                let (i, j) = (g.index(&sc, 2), g.index(&sc, 2));
                let name = g.fresh("r");
                let _ = writeln!(
                    out,
                    "  struct Cb {name}c = cbs[{i}];\n  int {name} = {name}c.f((int)({e})) + tab[{j}]({name}c.k) + (cbs[0].f == tab[1]);"
                );
                results.push(name);
            }
            // The array of pointers of `pa`: an element given another address, a write
            // through one, a copy of the structure, a read through a pointer to it.
            6 => {
                let (i, j, k) = (g.index(&sc, 2), g.index(&sc, 3), g.index(&sc, 2));
                let name = g.fresh("r");
                let _ = match g.rng.below(4) {
                    0 => writeln!(out, "  pa.p[{i}] = &pv[{j}];"),
                    1 => writeln!(out, "  *pa.p[{i}] = (int)({e});"),
                    2 => writeln!(
                        out,
                        "  struct Pa {name}c = pa;\n  {name}c.p[{i}] = &pv[{j}];\n  *{name}c.p[{k}] ^= 1;"
                    ),
                    _ => writeln!(out, "  struct Pa *{name}q = &pa;\n  *{name}q->p[{i}] = {name}q->n + pv[{j}];"),
                };
                let _ = writeln!(out, "  int {name} = *pa.p[{k}] + pv[{j}];");
                results.push(name);
            }
            // A result read from the members.
            _ => {
                let name = g.fresh("r");
                let size = format!(
                    "(int)(sizeof(struct S{}) + _Alignof(struct S{}))",
                    g.rng.below(types.len() as u64),
                    g.rng.below(types.len() as u64)
                );
                let _ = writeln!(out, "  int {name} = {e} + {size};");
                results.push(name);
            }
        }
    }
    for r in results {
        sc.add_var(r, Ty(int_ty()));
    }
    if g.one_in(3) {
        // The layout as a value a counterexample must state: replayed on gcc, it reaches the
        // error only if bitmc's sizes and alignments are gcc's.
        let (a, b) = (
            g.rng.below(types.len() as u64),
            g.rng.below(types.len() as u64),
        );
        let lay = g.fresh("lay");
        let _ = writeln!(
            out,
            "  int {lay} = __VERIFIER_nondet_int();\n  if ({lay} == (int)(sizeof(struct S{a}) * 16 + _Alignof(struct S{b})))\n    reach_error();"
        );
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
