//! Random C programs shaped like the ones bitmc has got wrong: a state machine (`switch` over a
//! state variable inside a bounded `while` loop), `goto` (forward out of loops, backward in
//! bounded loops), many `__VERIFIER_nondet_*` calls, `if/else` diamonds followed by a havoc
//! (the shape large-block encoding merges), bounded `for` loops, helper functions taking
//! scalars, pointers bound to scalars, `void *`, arrays and matrices, pointer views of another
//! integer type of the same width (directly, by a cast, or through `void *`), `sizeof` of
//! pointers and array parameters, address-only `void *` variables, casts between integer
//! types; and `reach_error()` under random conditions, at the end and sometimes inside.
//!
//! Programs are for one data model (pointer views depend on widths) and have no undefined
//! behaviour other than signed overflow, which `-fwrapv` defines: every variable is
//! initialised where it is declared, indexes are in bounds, divisors are never zero or -1,
//! shift amounts are below 16, no pointer views an object of another width, each nondet call
//! is a statement of its own (argument evaluation order never matters), and every loop is
//! bounded by a constant, so every run of the compiled program ends.

use super::expr::Gen;
use super::scope::{nondet_declarations, Arr, Ptr, Scope, Ty, Var, BOOL, INT, TYPES};
use bitmc::cfa::DataModel;
use std::fmt::Write;

/// A generated program.
pub struct Program {
    pub src: String,
    pub dm: DataModel,
}

/// A parameter of a helper function.
#[derive(Clone, Debug)]
enum Param {
    Scalar(Ty),
    /// `T *p`, bound to a scalar (read as `*p` or `p[0]`).
    Ptr(Ty),
    /// `void *v`, converted to `T *` in the body.
    Void(Ty),
    /// `T a[]`, `T a[len]` or `T *a`, bound to an array of at least `len` elements.
    Array(Ty, u64),
    /// `T m[][cols]` or `T m[rows][cols]`, bound to a matrix of at least `rows` rows.
    Matrix(Ty, u64, u64),
}

struct Func {
    name: String,
    ret: Option<Ty>,
    params: Vec<Param>,
}

/// Where a statement is: what may jump where.
#[derive(Clone, Copy)]
struct Ctx {
    /// Inside a loop or a `switch` (`break` allowed), inside a loop (`continue` allowed).
    breakable: bool,
    in_loop: bool,
    /// How many more levels of nested statements may be generated.
    depth: u32,
}

struct Builder {
    g: Gen,
    funcs: Vec<Func>,
}

/// The program of `seed` for data model `dm`.
pub fn generate(seed: u64, dm: DataModel) -> Program {
    let mut b = Builder {
        g: Gen::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, dm),
        funcs: Vec::new(),
    };
    Program {
        src: b.program(),
        dm,
    }
}

fn indent(n: usize) -> String {
    "  ".repeat(n)
}

impl Builder {
    fn program(&mut self) -> String {
        let mut out = format!("extern void reach_error(void);\n{}", nondet_declarations());
        let mut globals = Scope::default();
        for _ in 0..self.g.range(0, 2) {
            let (t, name) = (self.g.ty(), self.g.fresh("g"));
            let init = if self.g.one_in(2) {
                format!(" = {}", self.g.small())
            } else {
                String::new()
            };
            let _ = writeln!(out, "{} {name}{init};", t.c());
            globals.add_var(name, t);
        }
        if self.g.one_in(4) {
            let (t, name, len) = (self.g.ty(), self.g.fresh("ga"), self.g.range(2, 4));
            let _ = writeln!(out, "{} {name}[{len}];", t.c());
            globals.add_array(name, t, vec![len]);
        }
        if self.g.one_in(4) {
            let name = self.g.fresh("gt");
            let _ = writeln!(out, "void *{name};");
            globals.addrs.push(name);
        }
        if !globals.vars.is_empty() && self.g.one_in(4) {
            let target = self.g.pick(&globals.vars).clone();
            let decl = self.pointer_to(&target.name, target.ty, &mut globals);
            out.push_str(&decl);
        }
        // The objects of main are chosen first, so that helpers take parameters main can pass.
        let mut main = globals.clone();
        let mut main_decls = String::new();
        self.main_objects(&mut main, &mut main_decls);
        for _ in 0..self.g.range(0, 2) {
            let f = self.function(&globals, &main);
            out.push_str(&f);
        }
        out.push_str("int main(void) {\n");
        out.push_str(&main_decls);
        out.push_str(&self.main_body(&main));
        out
    }

    /// Main's scalars, arrays, matrices, pointers and address-only pointers.
    fn main_objects(&mut self, sc: &mut Scope, out: &mut String) {
        for _ in 0..self.g.range(2, 4) {
            let (t, name) = (self.g.ty(), self.g.fresh("x"));
            let init = match self.g.rng.below(4) {
                0 | 1 => format!("__VERIFIER_nondet_{}()", t.nondet()),
                2 => self.g.literal(),
                _ => self.g.expr(sc, 2),
            };
            let _ = writeln!(out, "  {} {name} = {init};", t.c());
            sc.add_var(name, t);
        }
        for _ in 0..self.g.range(0, 1) {
            let (t, name, len) = (self.g.ty(), self.g.fresh("a"), *self.g.pick(&[2, 3, 4, 4]));
            let init = self.initialiser(len, |g| g.small());
            let _ = writeln!(out, "  {} {name}[{len}] = {init};", t.c());
            sc.add_array(name, t, vec![len]);
        }
        if self.g.one_in(3) {
            let (t, name) = (self.g.ty(), self.g.fresh("m"));
            let (r, c) = *self.g.pick(&[(2, 3), (3, 2), (2, 2)]);
            let init = self.initialiser(r, |g| {
                let row: Vec<String> = (0..c).map(|_| g.small()).collect();
                format!("{{{}}}", row.join(", "))
            });
            let _ = writeln!(out, "  {} {name}[{r}][{c}] = {init};", t.c());
            sc.add_array(name, t, vec![r, c]);
        }
        for _ in 0..self.g.range(0, 2) {
            let decl = self.main_pointer(sc);
            out.push_str(&decl);
        }
        for _ in 0..self.g.range(0, 2) {
            let name = self.g.fresh("t");
            let init = match (self.g.rng.below(3), sc.addrs.last()) {
                (0, Some(u)) => u.clone(),
                (1, _) => format!("(void *)(unsigned long)({})", self.g.expr(sc, 1)),
                _ => "(void *)0".to_string(),
            };
            let _ = writeln!(out, "  void *{name} = {init};");
            sc.addrs.push(name);
        }
        for s in ["sizeof(void *)", "sizeof(int *)", "sizeof(unsigned char *)"] {
            sc.sizeofs.push(s.to_string());
        }
    }

    /// `{a, b, …}` (all elements, a prefix, or `{0}`) for `n` elements made by `elem`.
    fn initialiser(&mut self, n: u64, mut elem: impl FnMut(&mut Gen) -> String) -> String {
        let k = match self.g.rng.below(4) {
            0 => return "{0}".to_string(),
            1 => self.g.range(1, n),
            _ => n,
        };
        let xs: Vec<String> = (0..k).map(|_| elem(&mut self.g)).collect();
        format!("{{{}}}", xs.join(", "))
    }

    /// A pointer declaration in main: bound to a scalar (directly, by a cast, or through
    /// `void *`), to an array or matrix row, or to an array element.
    fn main_pointer(&mut self, sc: &mut Scope) -> String {
        let arrays: Vec<Arr> = sc.arrays.clone();
        if !arrays.is_empty() && self.g.one_in(2) {
            let a = self.g.pick(&arrays).clone();
            let view = self.view_of(a.ty);
            let name = self.g.fresh("q");
            let (base, len) = if a.dims.len() == 2 {
                (
                    format!("{}[{}]", a.name, self.g.rng.below(a.dims[0])),
                    a.dims[1],
                )
            } else {
                (a.name.clone(), a.dims[0])
            };
            if self.g.one_in(4) {
                // A pointer to one element: a scalar.
                let elem = format!("&{base}[{}]", self.g.rng.below(len));
                let init = self.converted(&elem, a.ty, view);
                sc.sizeofs.push(format!("sizeof({name})"));
                sc.ptrs.push(Ptr {
                    name: name.clone(),
                    ty: view,
                });
                return format!("  {} *{name} = {init};\n", view.c());
            }
            let init = self.converted(&base, a.ty, view);
            sc.sizeofs.push(format!("sizeof({name})"));
            sc.arrays.push(Arr {
                name: name.clone(),
                ty: view,
                dims: vec![len],
            });
            return format!("  {} *{name} = {init};\n", view.c());
        }
        let target = (*self.g.pick(&sc.writable_vars())).clone();
        format!("  {}", self.pointer_to(&target.name, target.ty, sc))
    }

    /// `T *p = &x;` (or through a cast or a `void *`) for a scalar `x` of type `ty`, added to
    /// the scope; the declaration ends with a newline, without indentation.
    fn pointer_to(&mut self, x: &str, ty: Ty, sc: &mut Scope) -> String {
        let view = self.view_of(ty);
        let name = self.g.fresh("p");
        let init = self.converted(&format!("&{x}"), ty, view);
        sc.sizeofs.push(format!("sizeof({name})"));
        sc.sizeofs.push(format!("sizeof(*{name})"));
        sc.ptrs.push(Ptr {
            name: name.clone(),
            ty: view,
        });
        format!("{} *{name} = {init};\n", view.c())
    }

    /// A type through which an object of type `ty` may be viewed: often `ty` itself.
    fn view_of(&mut self, ty: Ty) -> Ty {
        if self.g.one_in(2) {
            return ty;
        }
        let dm = self.g.dm;
        let views: Vec<Ty> = (0..TYPES.len())
            .map(Ty)
            .filter(|&v| ty.viewable_as(v, dm))
            .collect();
        *self.g.pick(&views)
    }

    /// The pointer `p` (to `from`) converted to a pointer to `to`: implicitly when they are
    /// the same, otherwise by a cast, sometimes through `void *`.
    fn converted(&mut self, p: &str, from: Ty, to: Ty) -> String {
        match (from == to, self.g.rng.below(3)) {
            (true, _) => p.to_string(),
            (false, 0) => format!("({} *)(void *){p}", to.c()),
            _ => format!("({} *){p}", to.c()),
        }
    }

    /// A helper function (added to the callable ones) whose parameters main's objects fit.
    fn function(&mut self, globals: &Scope, main: &Scope) -> String {
        let name = self.g.fresh("f");
        let ret = if self.g.one_in(4) {
            None
        } else {
            Some(self.g.ty())
        };
        let mut sc = globals.clone();
        let mut params = Vec::new();
        let mut text = Vec::new();
        let mut body = String::new();
        for _ in 0..self.g.range(1, 3) {
            let p = self.g.fresh("v");
            let param = self.param_for(main);
            match &param {
                Param::Scalar(t) => {
                    text.push(format!("{} {p}", t.c()));
                    sc.add_var(p, *t);
                }
                Param::Ptr(t) => {
                    text.push(format!("{} *{p}", t.c()));
                    sc.sizeofs.push(format!("sizeof({p})"));
                    sc.ptrs.push(Ptr { name: p, ty: *t });
                }
                Param::Void(t) => {
                    text.push(format!("void *{p}"));
                    let q = self.g.fresh("p");
                    let _ = writeln!(body, "  {} *{q} = {p};", t.c());
                    sc.sizeofs.push(format!("sizeof({p})"));
                    sc.ptrs.push(Ptr { name: q, ty: *t });
                }
                Param::Array(t, len) => {
                    let form = match self.g.rng.below(3) {
                        0 => format!("{} {p}[]", t.c()),
                        1 => format!("{} {p}[{len}]", t.c()),
                        _ => format!("{} *{p}", t.c()),
                    };
                    text.push(form);
                    sc.add_array(p, *t, vec![*len]);
                }
                Param::Matrix(t, r, c) => {
                    let rows = if self.g.one_in(2) {
                        String::new()
                    } else {
                        r.to_string()
                    };
                    text.push(format!("{} {p}[{rows}][{c}]", t.c()));
                    sc.add_array(p, *t, vec![*r, *c]);
                }
            }
            params.push(param);
        }
        for _ in 0..self.g.range(0, 1) {
            let (t, l) = (self.g.ty(), self.g.fresh("y"));
            let init = if self.g.one_in(3) {
                format!("__VERIFIER_nondet_{}()", t.nondet())
            } else {
                self.g.expr(&sc, 2)
            };
            let _ = writeln!(body, "  {} {l} = {init};", t.c());
            sc.add_var(l, t);
        }
        let cx = Ctx {
            breakable: false,
            in_loop: false,
            depth: 1,
        };
        let n = self.g.range(1, 3) as usize;
        body.push_str(&self.stmts(&sc, cx, n, 1));
        let ret_stmt = match ret {
            Some(_) => format!("  return {};\n", self.g.expr(&sc, 2)),
            None => "  return;\n".to_string(),
        };
        let rt = ret.map_or("void", |t| t.c());
        let src = format!(
            "{rt} {name}({}) {{\n{body}out:\n{ret_stmt}}}\n",
            text.join(", ")
        );
        self.funcs.push(Func { name, ret, params });
        src
    }

    /// A parameter that some object of main (or a global) can be passed to.
    fn param_for(&mut self, main: &Scope) -> Param {
        let dm = self.g.dm;
        loop {
            match self.g.rng.below(6) {
                0 | 1 => return Param::Scalar(self.g.ty()),
                2 | 3 => {
                    let x = self.g.pick(&main.writable_vars()).ty;
                    let v = self.view_of(x);
                    return if self.g.one_in(3) && v != BOOL {
                        Param::Void(v)
                    } else {
                        Param::Ptr(v)
                    };
                }
                _ if !main.arrays.is_empty() => {
                    let a = self.g.pick(&main.arrays).clone();
                    let v = self.view_of(a.ty);
                    debug_assert!(a.ty.viewable_as(v, dm));
                    let rows = self.g.range(1, a.dims[0]);
                    return match a.dims[..] {
                        [len] => Param::Array(v, self.g.range(1, len)),
                        [_, c] if self.g.one_in(2) => Param::Matrix(v, rows, c),
                        [_, c] => Param::Array(v, self.g.range(1, c)),
                        _ => unreachable!(),
                    };
                }
                _ => {}
            }
        }
    }

    /// An argument for `p` from the scope, if some object fits.
    fn argument(&mut self, p: &Param, sc: &Scope) -> Option<String> {
        let dm = self.g.dm;
        match p {
            Param::Scalar(_) => Some(self.g.expr(sc, 1)),
            Param::Ptr(t) | Param::Void(t) => {
                let mut cands: Vec<(String, Ty)> = Vec::new();
                for v in sc
                    .vars
                    .iter()
                    .filter(|v| v.writable && v.ty.viewable_as(*t, dm))
                {
                    cands.push((format!("&{}", v.name), v.ty));
                }
                for q in sc.ptrs.iter().filter(|q| q.ty.viewable_as(*t, dm)) {
                    cands.push((q.name.clone(), q.ty));
                }
                for a in sc.arrays.iter().filter(|a| a.ty.viewable_as(*t, dm)) {
                    let ix: Vec<String> = a
                        .dims
                        .iter()
                        .map(|d| format!("[{}]", self.g.rng.below(*d)))
                        .collect();
                    cands.push((format!("&{}{}", a.name, ix.concat()), a.ty));
                }
                if cands.is_empty() {
                    return None;
                }
                let (e, from) = self.g.pick(&cands).clone();
                Some(match p {
                    Param::Void(_) if self.g.one_in(2) => format!("(void *){e}"),
                    Param::Void(_) => e,
                    _ => self.converted(&e, from, *t),
                })
            }
            Param::Array(t, len) => {
                let mut cands: Vec<(String, Ty)> = Vec::new();
                for a in sc.arrays.iter().filter(|a| a.ty.viewable_as(*t, dm)) {
                    match a.dims[..] {
                        [n] if n >= *len => cands.push((a.name.clone(), a.ty)),
                        [r, c] if c >= *len => {
                            cands.push((format!("{}[{}]", a.name, self.g.rng.below(r)), a.ty))
                        }
                        _ => {}
                    }
                }
                if cands.is_empty() {
                    return None;
                }
                let (e, from) = self.g.pick(&cands).clone();
                Some(self.converted(&e, from, *t))
            }
            Param::Matrix(t, rows, cols) => {
                let cands: Vec<&Arr> = sc
                    .arrays
                    .iter()
                    .filter(|a| {
                        a.ty.viewable_as(*t, dm)
                            && a.dims.len() == 2
                            && a.dims[0] >= *rows
                            && a.dims[1] == *cols
                    })
                    .collect();
                if cands.is_empty() {
                    return None;
                }
                let a = (*self.g.pick(&cands)).clone();
                Some(if a.ty == *t {
                    a.name
                } else {
                    format!("({} (*)[{cols}]){}", t.c(), a.name)
                })
            }
        }
    }

    /// A call of a helper with arguments from the scope, if one can be formed; with whether
    /// the function returns a value.
    fn call(&mut self, sc: &Scope) -> Option<(String, bool)> {
        if self.funcs.is_empty() {
            return None;
        }
        let i = self.g.rng.below(self.funcs.len() as u64) as usize;
        let params = self.funcs[i].params.clone();
        let mut args = Vec::new();
        for p in &params {
            args.push(self.argument(p, sc)?);
        }
        let f = &self.funcs[i];
        Some((format!("{}({})", f.name, args.join(", ")), f.ret.is_some()))
    }

    /// Something that can be assigned: a variable, a read through a pointer, an element.
    fn lvalue(&mut self, sc: &Scope) -> (String, Ty) {
        loop {
            match self.g.rng.below(6) {
                0..=2 => {
                    let w = sc.writable_vars();
                    if !w.is_empty() {
                        let v = *self.g.pick(&w);
                        return (v.name.clone(), v.ty);
                    }
                }
                3 if !sc.ptrs.is_empty() => {
                    let p = self.g.pick(&sc.ptrs).clone();
                    return (self.g.deref(&p.name), p.ty);
                }
                4 | 5 if !sc.arrays.is_empty() => {
                    let i = self.g.rng.below(sc.arrays.len() as u64) as usize;
                    return (self.g.element(sc, i), sc.arrays[i].ty);
                }
                _ => {}
            }
        }
    }

    fn stmts(&mut self, sc: &Scope, cx: Ctx, n: usize, ind: usize) -> String {
        (0..n).map(|_| self.stmt(sc, cx, ind)).collect()
    }

    /// One statement (possibly compound), indented by `ind`, ending with a newline.
    fn stmt(&mut self, sc: &Scope, cx: Ctx, ind: usize) -> String {
        let pad = indent(ind);
        let deeper = Ctx {
            depth: cx.depth.saturating_sub(1),
            ..cx
        };
        loop {
            let k = self.g.rng.below(20);
            let nested = cx.depth > 0;
            let s = match k {
                0..=4 => {
                    let (lv, _) = self.lvalue(sc);
                    let e = self.g.expr(sc, 2);
                    let op = *self.g.pick(&["=", "=", "+=", "-=", "^=", "|=", "&=", "*="]);
                    format!("{pad}{lv} {op} {e};\n")
                }
                5 => {
                    let (lv, _) = self.lvalue(sc);
                    match self.g.rng.below(3) {
                        0 => format!("{pad}{lv} <<= ((int)({}) & 15);\n", self.g.expr(sc, 1)),
                        1 => format!("{pad}{lv} >>= ((int)({}) & 15);\n", self.g.expr(sc, 1)),
                        _ => format!(
                            "{pad}{lv} {} {};\n",
                            self.g.pick(&["/=", "%="]),
                            self.g.pick(&["3", "-7", "5u", "11"])
                        ),
                    }
                }
                6 => {
                    let (lv, _) = self.lvalue(sc);
                    let op = *self.g.pick(&["++", "--"]);
                    if self.g.one_in(2) {
                        format!("{pad}{op}{lv};\n")
                    } else {
                        format!("{pad}{lv}{op};\n")
                    }
                }
                7 | 8 => {
                    let (lv, ty) = self.lvalue(sc);
                    let t = if self.g.one_in(3) { self.g.ty() } else { ty };
                    format!("{pad}{lv} = __VERIFIER_nondet_{}();\n", t.nondet())
                }
                9 => self.diamond(sc, ind),
                10 if nested => {
                    let c = self.g.cond(sc);
                    let n = self.g.range(1, 2) as usize;
                    let then = self.stmts(sc, deeper, n, ind + 1);
                    if self.g.one_in(2) {
                        format!("{pad}if ({c}) {{\n{then}{pad}}}\n")
                    } else {
                        let other = self.stmts(sc, deeper, n, ind + 1);
                        format!("{pad}if ({c}) {{\n{then}{pad}}} else {{\n{other}{pad}}}\n")
                    }
                }
                11 => match self.call(sc) {
                    Some((call, true)) if self.g.one_in(2) => {
                        let (lv, _) = self.lvalue(sc);
                        format!("{pad}{lv} = {call};\n")
                    }
                    Some((call, _)) => format!("{pad}{call};\n"),
                    None => continue,
                },
                12 if nested => self.pointer_block(sc, deeper, ind),
                13 if !sc.addrs.is_empty() => {
                    let t = self.g.pick(&sc.addrs).clone();
                    let u = self.g.pick(&sc.addrs).clone();
                    match self.g.rng.below(3) {
                        0 => format!("{pad}{t} = {u};\n"),
                        1 => format!("{pad}{t} = (void *)0;\n"),
                        _ => format!("{pad}{t} = (void *)({});\n", self.g.expr(sc, 1)),
                    }
                }
                14 if nested => {
                    let i = self.g.fresh("i");
                    let bound = self.g.range(1, 3);
                    let mut inner = sc.clone();
                    inner.vars.push(Var {
                        name: i.clone(),
                        ty: INT,
                        writable: false,
                    });
                    let lp = Ctx {
                        breakable: true,
                        in_loop: true,
                        ..deeper
                    };
                    let n = self.g.range(1, 2) as usize;
                    let body = self.stmts(&inner, lp, n, ind + 1);
                    format!("{pad}for (int {i} = 0; {i} < {bound}; {i}++) {{\n{body}{pad}}}\n")
                }
                15 if nested => {
                    let (c, l) = (self.g.fresh("n"), self.g.fresh("again"));
                    let bound = self.g.range(1, 3);
                    let mut inner = sc.clone();
                    inner.vars.push(Var {
                        name: c.clone(),
                        ty: INT,
                        writable: false,
                    });
                    let n = self.g.range(1, 2) as usize;
                    let body = self.stmts(&inner, deeper, n, ind + 1);
                    let p1 = indent(ind + 1);
                    format!("{pad}{{\n{p1}int {c} = 0;\n{l}:\n{body}{p1}{c}++;\n{p1}if ({c} < {bound}) goto {l};\n{pad}}}\n")
                }
                16 if nested => self.switch(sc, deeper, ind),
                17 => {
                    let c = self.g.cond(sc);
                    let jump = match self.g.rng.below(8) {
                        0 | 1 if cx.in_loop => "continue",
                        2 | 3 if cx.breakable => "break",
                        4 => "reach_error()",
                        _ => "goto out",
                    };
                    format!("{pad}if ({c}) {jump};\n")
                }
                18 => {
                    let (lv, ty) = self.lvalue(sc);
                    let t = self.g.ty();
                    format!(
                        "{pad}{lv} = ({})(({})({}));\n",
                        ty.c(),
                        t.c(),
                        self.g.expr(sc, 2)
                    )
                }
                _ => continue,
            };
            return s;
        }
    }

    /// `if (nondet) x = a; else x = b;` then a havoc, and often a check of both: the shape
    /// that large-block encoding merges into one choice.
    fn diamond(&mut self, sc: &Scope, ind: usize) -> String {
        let pad = indent(ind);
        let (x, _) = self.lvalue(sc);
        let (a, b) = (self.g.small(), self.g.small());
        let c = *self.g.pick(&["int", "bool", "uchar", "uint"]);
        let mut s = format!("{pad}if (__VERIFIER_nondet_{c}()) {x} = {a}; else {x} = {b};\n");
        let w = sc.writable_vars();
        if w.is_empty() {
            return s;
        }
        let y = (*self.g.pick(&w)).clone();
        let _ = writeln!(
            s,
            "{pad}{} = __VERIFIER_nondet_{}();",
            y.name,
            y.ty.nondet()
        );
        if self.g.one_in(3) {
            let k = self.g.small();
            let _ = writeln!(
                s,
                "{pad}if ({} == {k} && {x} == {a}) reach_error();",
                y.name
            );
        }
        s
    }

    /// A block declaring a pointer to a scalar or an array (directly, by a cast or through
    /// `void *`) and using it.
    fn pointer_block(&mut self, sc: &Scope, cx: Ctx, ind: usize) -> String {
        let (pad, p1) = (indent(ind), indent(ind + 1));
        let mut inner = sc.clone();
        let decl = if !sc.arrays.is_empty() && self.g.one_in(3) {
            let a = self.g.pick(&sc.arrays).clone();
            let view = self.view_of(a.ty);
            let name = self.g.fresh("q");
            let (base, len) = match a.dims[..] {
                [n] => (a.name.clone(), n),
                _ => (
                    format!("{}[{}]", a.name, self.g.rng.below(a.dims[0])),
                    a.dims[1],
                ),
            };
            let init = self.converted(&base, a.ty, view);
            inner.sizeofs.push(format!("sizeof({name})"));
            inner.arrays.push(Arr {
                name: name.clone(),
                ty: view,
                dims: vec![len],
            });
            format!("{p1}{} *{name} = {init};\n", view.c())
        } else {
            let w = sc.writable_vars();
            if w.is_empty() {
                return String::new();
            }
            let x = (*self.g.pick(&w)).clone();
            if self.g.one_in(3) {
                let (v, view, name) = (self.g.fresh("w"), self.view_of(x.ty), self.g.fresh("p"));
                inner.ptrs.push(Ptr {
                    name: name.clone(),
                    ty: view,
                });
                format!(
                    "{p1}void *{v} = &{};\n{p1}{} *{name} = {v};\n",
                    x.name,
                    view.c()
                )
            } else {
                format!("{p1}{}", self.pointer_to(&x.name, x.ty, &mut inner))
            }
        };
        let n = self.g.range(1, 2) as usize;
        let body = self.stmts(&inner, cx, n, ind + 1);
        format!("{pad}{{\n{decl}{body}{pad}}}\n")
    }

    /// A `switch` on a masked value, some cases falling through.
    fn switch(&mut self, sc: &Scope, cx: Ctx, ind: usize) -> String {
        let pad = indent(ind);
        let e = self.g.expr(sc, 1);
        let mut s = format!("{pad}switch (({e}) & 3) {{\n");
        let inner = Ctx {
            breakable: true,
            ..cx
        };
        for case in 0..self.g.range(1, 3) {
            let _ = writeln!(s, "{pad}case {case}:");
            s.push_str(&self.stmts(sc, inner, 1, ind + 1));
            if !self.g.one_in(3) {
                let _ = writeln!(s, "{}break;", indent(ind + 1));
            }
        }
        if self.g.one_in(2) {
            let _ = writeln!(s, "{pad}default:");
            s.push_str(&self.stmts(sc, inner, 1, ind + 1));
        }
        let _ = writeln!(s, "{pad}}}");
        s
    }

    /// Main's statements: a state machine or plain statements, then the error check.
    fn main_body(&mut self, main: &Scope) -> String {
        let mut sc = main.clone();
        let mut s = String::new();
        let top = Ctx {
            breakable: false,
            in_loop: false,
            depth: 2,
        };
        // The state machine's variables are declared before any statement: a `goto out`
        // must not skip their initialisation (the final check may read them).
        let machine = !self.g.one_in(4);
        let (st, it) = (self.g.fresh("st"), self.g.fresh("it"));
        let states = self.g.range(2, 4);
        if machine {
            let _ = writeln!(
                s,
                "  int {st} = {};\n  int {it} = 0;",
                self.g.rng.below(states)
            );
        }
        let n = self.g.range(0, 1) as usize;
        s.push_str(&self.stmts(&sc, top, n, 1));
        if machine {
            let bound = self.g.range(2, 5);
            sc.vars.push(Var {
                name: st.clone(),
                ty: INT,
                writable: false,
            });
            sc.vars.push(Var {
                name: it.clone(),
                ty: INT,
                writable: false,
            });
            let _ = writeln!(
                s,
                "  while ({it} < {bound}) {{\n    {it}++;\n    switch ({st}) {{"
            );
            let cx = Ctx {
                breakable: true,
                in_loop: true,
                depth: 1,
            };
            for case in 0..states {
                let label = if case + 1 == states && self.g.one_in(2) {
                    "default:".to_string()
                } else {
                    format!("case {case}:")
                };
                let _ = writeln!(s, "    {label}");
                let n = self.g.range(1, 2) as usize;
                s.push_str(&self.stmts(&sc, cx, n, 3));
                let next = match self.g.rng.below(4) {
                    0 => format!(
                        "(({}) & {})",
                        self.g.expr(&sc, 1),
                        states.next_power_of_two() - 1
                    ),
                    1 => "__VERIFIER_nondet_int()".to_string(),
                    2 => format!(
                        "({}) ? {} : {}",
                        self.g.cond(&sc),
                        self.g.rng.below(states),
                        self.g.rng.below(states)
                    ),
                    _ => self.g.rng.below(states).to_string(),
                };
                let _ = writeln!(s, "      {st} = {next};");
                if !self.g.one_in(4) {
                    s.push_str("      break;\n");
                }
            }
            s.push_str("    }\n  }\n");
        }
        let n = self.g.range(0, 1) as usize;
        s.push_str(&self.stmts(&sc, top, n, 1));
        let c = self.g.cond(&sc);
        let _ = write!(s, "out:\n  if ({c}) reach_error();\n  return 0;\n}}\n");
        s
    }
}
