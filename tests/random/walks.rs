//! Random C programs with general pointers: pointer variables given an object's address after
//! their declaration (an element of a global or local array, a scalar, another pointer, a
//! function's result, a `?:` between pointers), moved with `++`, `--` and `+=`, compared with
//! `==` and `<`, subtracted, walked over an array by a loop and by a function, written and read
//! through (also through a pointer to a pointer and through a pointer to the type of the other
//! signedness), and null; an array of pointers and a structure with a pointer member, an
//! array member and an array of structures, reached directly and through a general pointer
//! to the structure.
//!
//! No undefined behaviour under `-fwrapv`: the generator knows where each pointer points and
//! only moves it within its object (one past the end included), dereferences it only when it
//! points at an element, and compares or subtracts pointers into the same object.

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

/// An object pointers may point into: its name and its number of elements.
#[derive(Clone)]
struct Obj {
    name: String,
    len: u64,
    /// A scalar (`&x`) rather than an array.
    scalar: bool,
}

/// Where a pointer variable points: an object and whether at an element (not one past).
#[derive(Clone)]
struct At {
    obj: Option<usize>,
    element: bool,
}

struct Walk<'g> {
    g: &'g mut Gen,
    objs: Vec<Obj>,
    ptrs: Vec<(String, At)>,
    /// Where each element of the array of pointers `tab` points.
    tab: Vec<At>,
    /// Where the pointer member `w.p` of the structure `w` points.
    member: At,
    sc: Scope,
    t: Ty,
    out: String,
    results: usize,
}

/// The element type: any integer type but `_Bool`.
fn elem_ty(g: &mut Gen) -> Ty {
    loop {
        let t = g.ty();
        if t.c() != "_Bool" {
            return t;
        }
    }
}

/// The type of the same width and the other signedness (`char` for `unsigned char`).
fn other_sign(t: Ty) -> Ty {
    let c = t.c();
    let flipped = match c.strip_prefix("unsigned ") {
        Some(rest) => rest.to_string(),
        None if c == "signed char" || c == "char" => "unsigned char".to_string(),
        None => format!("unsigned {c}"),
    };
    Ty(TYPES.iter().position(|x| x.c == flipped).unwrap_or(t.0))
}

fn program(g: &mut Gen) -> String {
    let t = elem_ty(g);
    let tc = t.c();
    let mut out = format!("extern void reach_error(void);\n{}", nondet_declarations());
    let _ = writeln!(out, "{tc} *adv({tc} *p, int k) {{ return p + k; }}");
    let _ = writeln!(out, "void put({tc} **pp, {tc} *v) {{ *pp = v; }}");
    let _ = writeln!(
        out,
        "{tc} sum({tc} *p, {tc} *e) {{ {tc} s = 0; while (p < e) {{ s += *p; p++; }} return s; }}"
    );
    let _ = writeln!(out, "struct E {{ {tc} e; short f[2]; }};");
    let _ = writeln!(
        out,
        "struct W {{ {tc} v; {tc} *p; {tc} a[3]; struct E es[2]; }};"
    );
    let mut w = Walk {
        g,
        objs: Vec::new(),
        ptrs: Vec::new(),
        tab: Vec::new(),
        member: At {
            obj: None,
            element: false,
        },
        sc: Scope::default(),
        t,
        out,
        results: 0,
    };
    for _ in 0..w.g.range(1, 2) {
        w.array("A", false);
    }
    // An array of pointers into the first array (or null), and a structure whose pointer
    // member is null.
    let n = w.g.range(2, 3);
    let first = w.objs[0].clone();
    let mut items = Vec::new();
    for _ in 0..n {
        if w.g.one_in(3) {
            items.push("0".to_string());
            w.tab.push(At {
                obj: None,
                element: false,
            });
        } else {
            items.push(format!("&{}[{}]", first.name, w.g.rng.below(first.len)));
            w.tab.push(At {
                obj: Some(0),
                element: true,
            });
        }
    }
    let _ = writeln!(w.out, "{tc} *tab[{n}] = {{{}}};", items.join(", "));
    let items: Vec<String> = (0..3).map(|_| w.g.small()).collect();
    let _ = writeln!(w.out, "struct W w = {{1, 0, {{{}}}}};", items.join(", "));
    w.sc.add_var("w.v".to_string(), t);
    w.sc.add_array("w.a".to_string(), t, vec![3]);
    for k in 0..2 {
        w.sc.add_var(format!("w.es[{k}].e"), t);
    }
    w.out.push_str("int main(void) {\n");
    w.array("L", true);
    let x = w.g.fresh("x");
    let _ = writeln!(w.out, "  {tc} {x} = __VERIFIER_nondet_{}();", t.nondet());
    w.sc.add_var(x.clone(), t);
    w.objs.push(Obj {
        name: x,
        len: 1,
        scalar: true,
    });
    for _ in 0..w.g.range(1, 2) {
        let (ty, name) = (w.g.ty(), w.g.fresh("v"));
        let _ = writeln!(
            w.out,
            "  {} {name} = __VERIFIER_nondet_{}();",
            ty.c(),
            ty.nondet()
        );
        w.sc.add_var(name, ty);
    }
    for _ in 0..w.g.range(1, 3) {
        let name = w.g.fresh("p");
        let at = if w.g.one_in(2) {
            let _ = writeln!(w.out, "  {tc} *{name} = 0;");
            At {
                obj: None,
                element: false,
            }
        } else {
            let _ = writeln!(w.out, "  {tc} *{name} = {};", w.objs[0].name);
            At {
                obj: Some(0),
                element: true,
            }
        };
        w.ptrs.push((name, at));
    }
    for _ in 0..w.g.range(4, 9) {
        w.stmt();
    }
    for _ in 0..w.g.range(1, 2) {
        let c = w.g.cond(&w.sc);
        let _ = writeln!(w.out, "  if ({c})\n    reach_error();");
    }
    w.out.push_str("  return 0;\n}\n");
    w.out
}

impl Walk<'_> {
    /// A global or local array of the element type with an initialiser.
    fn array(&mut self, prefix: &str, local: bool) {
        let name = self.g.fresh(prefix);
        let len = self.g.range(2, 6);
        let items: Vec<String> = (0..len).map(|_| self.g.small()).collect();
        let ind = if local { "  " } else { "" };
        let _ = writeln!(
            self.out,
            "{ind}{} {name}[{len}] = {{{}}};",
            self.t.c(),
            items.join(", ")
        );
        self.sc.add_array(name.clone(), self.t, vec![len]);
        self.objs.push(Obj {
            name,
            len,
            scalar: false,
        });
    }

    /// A pointer expression to an element of a random object, and where it points.
    fn target(&mut self) -> (String, At) {
        let k = self.g.rng.below(self.objs.len() as u64) as usize;
        let o = self.objs[k].clone();
        let at = At {
            obj: Some(k),
            element: true,
        };
        if o.scalar {
            return (format!("&{}", o.name), at);
        }
        let i = self.g.index(&self.sc, o.len);
        let e = match self.g.rng.below(4) {
            0 => format!("&{}[{i}]", o.name),
            1 => format!("{} + {i}", o.name),
            2 => format!("adv({}, (int)({i}))", o.name),
            _ => {
                let c = self.g.cond(&self.sc);
                let (other, _) = self.target_of_kind(true);
                return (
                    format!("({c}) ? {} + {i} : {other}", o.name),
                    At {
                        obj: None,
                        element: true,
                    },
                );
            }
        };
        (e, at)
    }

    /// `&x` for the scalar (its object is then unknown to the caller).
    fn target_of_kind(&mut self, scalar: bool) -> (String, Option<usize>) {
        let k = self
            .objs
            .iter()
            .position(|o| o.scalar == scalar)
            .unwrap_or(0);
        (format!("&{}", self.objs[k].name), Some(k))
    }

    fn stmt(&mut self) {
        let n = self.ptrs.len();
        let pi = self.g.rng.below(n as u64) as usize;
        let (p, at) = self.ptrs[pi].clone();
        let e = self.g.expr(&self.sc, 1);
        if self.g.one_in(4) {
            self.aggregate_stmt(e);
            return;
        }
        match self.g.rng.below(9) {
            // An assignment of an element's address.
            0 | 1 => {
                let (x, at) = self.target();
                let _ = writeln!(self.out, "  {p} = {x};");
                self.ptrs[pi].1 = at;
            }
            // A write through the pointer (or through a pointer to it).
            2 | 3 if at.element => {
                if self.g.one_in(3) {
                    let pp = self.g.fresh("pp");
                    let _ = writeln!(
                        self.out,
                        "  {0} **{pp} = &{p};\n  **{pp} = {e};",
                        self.t.c()
                    );
                } else {
                    let _ = writeln!(self.out, "  *{p} = {e};");
                }
            }
            // A read, possibly through the type of the other signedness.
            4 if at.element => {
                let r = self.result();
                let u = other_sign(self.t);
                let read = if self.g.one_in(2) {
                    format!("*({} *){p}", u.c())
                } else {
                    format!("{p}[0]")
                };
                let _ = writeln!(self.out, "  int {r} = (int)({read}) + (int)({e});");
            }
            // A step forward or back, kept within an array.
            5 => {
                if let Some(k) = at.obj.filter(|&k| !self.objs[k].scalar) {
                    let a = self.objs[k].name.clone();
                    let len = self.objs[k].len;
                    // Forward only from an element (one past the end is the last place a
                    // pointer may reach); back from anywhere after the first element.
                    let choice = if at.element { self.g.rng.below(3) } else { 1 };
                    let (step, guard) = match choice {
                        0 => ("++", format!("{p} < {a} + {}", len - 1)),
                        1 => ("--", format!("{p} > {a}")),
                        _ => ("+= 1", format!("{p} != {a} + {}", len - 1)),
                    };
                    let _ = writeln!(self.out, "  if ({guard})\n    {p}{step};");
                    // Back from one past the end lands on the last element.
                    self.ptrs[pi].1.element = true;
                }
            }
            // Comparisons and differences of pointers into one array.
            6 => {
                if let Some(k) = at.obj.filter(|&k| !self.objs[k].scalar) {
                    let a = self.objs[k].name.clone();
                    let len = self.objs[k].len;
                    let j = self.g.index(&self.sc, len + 1);
                    let r = self.result();
                    let op = *self.g.pick(&["<", "<=", "==", "!=", ">"]);
                    let _ = writeln!(
                        self.out,
                        "  int {r} = (int)({p} - {a}) * 3 + ({p} {op} {a} + {j});"
                    );
                }
            }
            // A walk over an array by a loop or by `sum`, the result in a new variable.
            7 => {
                let k = self.g.rng.below(self.objs.len() as u64) as usize;
                let o = self.objs[k].clone();
                let r = self.result();
                if o.scalar {
                    let _ = writeln!(self.out, "  int {r} = (int)sum(&{0}, &{0} + 1);", o.name);
                } else if self.g.one_in(2) {
                    let _ = writeln!(
                        self.out,
                        "  int {r} = (int)sum({0}, {0} + {1});",
                        o.name, o.len
                    );
                } else {
                    let _ = writeln!(
                        self.out,
                        "  int {r} = 0;\n  for ({p} = {0}; {p} < {0} + {1}; {p}++)\n    {r} += (int)*{p};",
                        o.name, o.len
                    );
                    self.ptrs[pi].1 = At {
                        obj: Some(k),
                        element: false,
                    };
                }
            }
            // Another pointer copied, or null, or set through `put`.
            _ => {
                let (q, qat) = self.ptrs[self.g.rng.below(n as u64) as usize].clone();
                match self.g.rng.below(3) {
                    0 => {
                        let _ = writeln!(self.out, "  {p} = {q};");
                        self.ptrs[pi].1 = qat;
                    }
                    1 => {
                        let _ = writeln!(self.out, "  {p} = 0;");
                        self.ptrs[pi].1 = At {
                            obj: None,
                            element: false,
                        };
                        let r = self.result();
                        let _ = writeln!(self.out, "  int {r} = {p} == 0;");
                    }
                    _ => {
                        let (x, at) = self.target();
                        let _ = writeln!(self.out, "  put(&{p}, {x});");
                        self.ptrs[pi].1 = at;
                    }
                }
            }
        }
    }

    /// A statement on the array of pointers or on the structure's pointer member.
    fn aggregate_stmt(&mut self, e: String) {
        let tc = self.t.c();
        let j = self.g.rng.below(self.tab.len() as u64) as usize;
        match self.g.rng.below(5) {
            0 => {
                let (x, at) = self.target();
                let _ = writeln!(self.out, "  tab[{j}] = {x};");
                self.tab[j] = at;
            }
            1 => {
                let r = self.result();
                let read = if self.tab[j].element {
                    format!("(int)*tab[{j}]")
                } else {
                    format!("tab[{j}] == 0")
                };
                let _ = writeln!(self.out, "  int {r} = {read};");
                if self.tab[j].element && self.g.one_in(2) {
                    let _ = writeln!(self.out, "  *tab[{j}] = {e};");
                }
            }
            2 => {
                let (x, at) = self.target();
                let _ = writeln!(self.out, "  w.p = {x};");
                self.member = at;
            }
            3 => {
                // A pointer assigned after its declaration: a general pointer to `w`, whose
                // array member is reached through it.
                let pw = self.g.fresh("pw");
                let (i, k) = (self.g.index(&self.sc, 3), self.g.index(&self.sc, 3));
                let r = self.result();
                let _ = writeln!(
                    self.out,
                    "  struct W *{pw} = 0;\n  {pw} = &w;\n  {pw}->v = {e};\n  {pw}->a[{i}] = {pw}->v;\n  int {r} = (int){pw}->a[{k}];"
                );
                if self.member.element {
                    let r = self.result();
                    let _ = writeln!(self.out, "  int {r} = (int)*{pw}->p;\n  *{pw}->p += 1;");
                }
                // Its array of structures, reached through it and through a pointer to its
                // first element.
                let [a, b, c, d] = [0; 4].map(|_| self.g.index(&self.sc, 2));
                let r = self.result();
                let _ = writeln!(
                    self.out,
                    "  {pw}->es[{a}].e = {pw}->a[{i}];\n  {pw}->es[{b}].f[1] = (short)({e});\n  struct E *{pw}e = {pw}->es;\n  int {r} = (int){pw}e[{c}].e + {pw}->es[{d}].f[1];"
                );
            }
            _ => {
                let r = self.result();
                let _ = writeln!(
                    self.out,
                    "  int {r} = w.p == 0 ? -1 : (int)({tc})(w.p == tab[{j}]);"
                );
            }
        }
    }

    /// A fresh `int` result variable, added to the scope.
    fn result(&mut self) -> String {
        self.results += 1;
        let r = self.g.fresh("r");
        self.sc.add_var(r.clone(), super::scope::INT);
        r
    }
}
