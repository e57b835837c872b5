//! Random pure C expressions over a [`Scope`]: literals of every form (suffixes, hex, character
//! constants), every operator, casts to every integer type, `?:`, `&&`, `||`, array elements
//! with in-bounds symbolic indexes, reads through pointers, address-only pointers compared and
//! cast to integers, `sizeof`. Nothing has undefined behaviour under `-fwrapv`: divisors are
//! nonzero constants other than -1 or unsigned values `| 1u`, shift amounts are masked below
//! 16, indexes are masked (`& (N-1)`) or reduced (`% N`) into bounds.
//!
//! Also the straight-line integer programs of the interpreter-against-gcc test.

use super::scope::{Scope, Ty, TYPES};
use crate::common::Rng;
use bitmc::cfa::DataModel;

/// The generator's state: the random source and the data model the program is for.
pub struct Gen {
    pub rng: Rng,
    pub dm: DataModel,
    fresh: u32,
    /// How deep inside index expressions the current expression is.
    nest: u32,
}

impl Gen {
    pub fn new(seed: u64, dm: DataModel) -> Gen {
        Gen {
            rng: Rng(seed, Vec::new()),
            dm,
            fresh: 0,
            nest: 0,
        }
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.rng.below(xs.len() as u64) as usize]
    }

    /// True with probability 1/n.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.rng.below(n) == 0
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.rng.below(hi - lo + 1)
    }

    /// A name not used before in this program.
    pub fn fresh(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    pub fn ty(&mut self) -> Ty {
        Ty(self.rng.below(TYPES.len() as u64) as usize)
    }

    /// A small constant that fits every type but `_Bool`.
    pub fn small(&mut self) -> String {
        let v = self.rng.below(12) as i64 - 3;
        v.to_string()
    }

    pub fn literal(&mut self) -> String {
        if self.one_in(6) {
            let c = *self.pick(&["'a'", "'\\xff'", "'\\200'", "'\\n'", "'\\0'", "'~'"]);
            return c.to_string();
        }
        let v = match self.rng.below(4) {
            0 => self.rng.below(10),
            1 => self.rng.interesting() & 0xffff_ffff,
            2 => self.rng.below(300),
            _ => self.rng.interesting(),
        };
        let suffix = *self.pick(&["", "", "u", "l", "ul", "ll", "ull"]);
        // A decimal constant above LLONG_MAX without `u` has no type in C (gcc gives it one of
        // its own, which differs between -m32 and 64-bit mode).
        if (v > 0xffff_ffff && !suffix.contains("ll"))
            || (v > i64::MAX as u64 && !suffix.contains('u'))
        {
            format!("{v}ull")
        } else if self.one_in(3) {
            format!("{v:#x}{suffix}")
        } else {
            format!("{v}{suffix}")
        }
    }

    /// An index below `len`: a constant, or a symbolic value masked or reduced into range.
    pub fn index(&mut self, sc: &Scope, len: u64) -> String {
        if self.one_in(4) || self.nest > 0 {
            return self.rng.below(len).to_string();
        }
        self.nest += 1;
        let d = self.rng.below(2) as u32;
        let e = self.expr(sc, d);
        self.nest -= 1;
        // A remainder of a narrow unsigned value costs the solvers less than a wide one.
        match (len.is_power_of_two(), self.rng.below(4)) {
            (true, 0) => format!("((unsigned)({e}) % {len}u)"),
            (true, _) => format!("(({e}) & {})", len - 1),
            (false, 0) => format!("((unsigned)({e}) % {len}u)"),
            (false, _) => format!("((unsigned char)({e}) % {len}u)"),
        }
    }

    /// An element access `a[i]` or `m[i][j]` of one of the scope's arrays.
    pub fn element(&mut self, sc: &Scope, i: usize) -> String {
        let a = &sc.arrays[i];
        let mut s = a.name.clone();
        for &d in &a.dims {
            let ix = self.index(sc, d);
            s.push_str(&format!("[{ix}]"));
        }
        s
    }

    /// A read of a pointer bound to a scalar.
    pub fn deref(&mut self, name: &str) -> String {
        if self.one_in(4) {
            format!("{name}[0]")
        } else {
            format!("(*{name})")
        }
    }

    /// A value read from the scope (or a literal).
    fn leaf(&mut self, sc: &Scope) -> String {
        if sc.vars.is_empty() || self.one_in(4) {
            return self.literal();
        }
        loop {
            match self.rng.below(12) {
                0..=4 => {
                    let i = self.rng.below(sc.vars.len() as u64) as usize;
                    return sc.vars[i].name.clone();
                }
                5 | 6 if !sc.ptrs.is_empty() => {
                    let i = self.rng.below(sc.ptrs.len() as u64) as usize;
                    return self.deref(&sc.ptrs[i].name.clone());
                }
                7..=9 if !sc.arrays.is_empty() && self.nest == 0 => {
                    let i = self.rng.below(sc.arrays.len() as u64) as usize;
                    return self.element(sc, i);
                }
                10 if !sc.addrs.is_empty() => return self.address_use(sc),
                11 if !sc.sizeofs.is_empty() => {
                    let i = self.rng.below(sc.sizeofs.len() as u64) as usize;
                    return sc.sizeofs[i].clone();
                }
                _ => {}
            }
        }
    }

    /// An integer from an address-only pointer: cast, compared with another or with null.
    fn address_use(&mut self, sc: &Scope) -> String {
        let t = self.pick(&sc.addrs).clone();
        let u = self.pick(&sc.addrs).clone();
        match self.rng.below(5) {
            0 => format!("((unsigned long){t})"),
            1 => format!("({t} == {u})"),
            2 => format!("({t} != (void *)0)"),
            3 => format!("(!{t})"),
            _ => format!("((unsigned)(unsigned long){t})"),
        }
    }

    pub fn expr(&mut self, sc: &Scope, depth: u32) -> String {
        if depth == 0 || self.one_in(4) {
            return self.leaf(sc);
        }
        let a = self.expr(sc, depth - 1);
        // Division, remainder and multiplication are rarer than the rest: their circuits are
        // the hardest for the solvers.
        match self.rng.below(16) {
            0..=3 | 12..=15 => {
                let op = *self.pick(&[
                    "+", "-", "*", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=", "+", "-", "&",
                    "+", "-", "^", "|", "==",
                ]);
                let b = self.expr(sc, depth - 1);
                format!("({a} {op} {b})")
            }
            4 => {
                let d = *self.pick(&["3", "7", "-5", "2u", "10l", "13ll", "-9", "255", "65536"]);
                let op = *self.pick(&["/", "%"]);
                format!("({a} {op} {d})")
            }
            5 if self.one_in(3) => {
                // An unsigned divisor that is never zero (and never -1).
                let op = *self.pick(&["/", "%"]);
                let b = self.expr(sc, depth - 1);
                format!("({a} {op} ((unsigned)({b}) | 1u))")
            }
            6 => {
                let op = *self.pick(&["<<", ">>"]);
                let b = self.expr(sc, depth - 1);
                format!("({a} {op} ((int)({b}) & 15))")
            }
            7 => {
                let t = self.ty().c();
                format!("(({t})({a}))")
            }
            8 => {
                let op = *self.pick(&["-", "~", "!", "+"]);
                format!("({op}{a})")
            }
            9 => {
                let b = self.expr(sc, depth - 1);
                let c = self.expr(sc, depth - 1);
                format!("({a} ? {b} : {c})")
            }
            10 => {
                let op = *self.pick(&["&&", "||"]);
                let b = self.expr(sc, depth - 1);
                format!("({a} {op} {b})")
            }
            11 => {
                let op = *self.pick(&["&&", "||"]);
                let b = self.expr(sc, depth - 1);
                format!("(!{a} {op} {b})")
            }
            _ => a,
        }
    }

    /// A condition for a branch or an error call: a comparison, often with a literal, or two
    /// joined by `&&`/`||`.
    pub fn cond(&mut self, sc: &Scope) -> String {
        let one = |g: &mut Gen| {
            let d = 1 + g.rng.below(2) as u32;
            let a = g.expr(sc, d);
            let op = *g.pick(&["==", "!=", "<", ">", "<=", ">=", "==", "==", "=="]);
            let b = if g.one_in(2) {
                g.literal()
            } else {
                let d = g.rng.below(2) as u32;
                g.expr(sc, d)
            };
            format!("{a} {op} {b}")
        };
        match self.rng.below(4) {
            0 | 1 => {
                let (a, b) = (one(self), one(self));
                let op = *self.pick(&["&&", "||", "&&", "&&"]);
                format!("({a}) {op} ({b})")
            }
            2 if self.one_in(2) => self.expr(sc, 2),
            _ => one(self),
        }
    }

    /// A straight-line program over nondet variables of every type: each statement assigns
    /// one variable once (nothing is unsequenced) and its value goes into a digest whose low
    /// bit decides whether the error is reached. Returns the text and the number of nondet
    /// calls.
    pub fn straight_line_program(&mut self) -> (String, usize) {
        let mut sc = Scope::default();
        let mut decls = String::new();
        let mut body = String::new();
        let n = 2 + self.rng.below(4) as usize;
        for i in 0..n {
            let t = self.ty();
            let name = format!("v{i}");
            decls.push_str(&format!(
                "extern {} __VERIFIER_nondet_{}(void);\n",
                t.c(),
                t.nondet()
            ));
            body.push_str(&format!(
                "  {} {name} = __VERIFIER_nondet_{}();\n",
                t.c(),
                t.nondet()
            ));
            sc.add_var(name, t);
        }
        for k in 0..(4 + self.rng.below(6)) {
            let e = self.expr(&sc, 3);
            let v = self.pick(&sc.vars).name.clone();
            match self.rng.below(4) {
                0 => {
                    let t = self.ty().c();
                    body.push_str(&format!(
                        "  {t} r{k} = {e};\n  mix((unsigned long long)r{k});\n"
                    ));
                }
                1 => {
                    let op = *self.pick(&["+=", "-=", "*=", "&=", "|=", "^=", "="]);
                    body.push_str(&format!("  mix((unsigned long long)({v} {op} {e}));\n"));
                }
                2 => {
                    let op = *self.pick(&["++", "--"]);
                    let x = if self.one_in(2) {
                        format!("{op}{v}")
                    } else {
                        format!("{v}{op}")
                    };
                    body.push_str(&format!("  mix((unsigned long long)({x}));\n"));
                }
                _ => {
                    let d = *self.pick(&["<<=", ">>=", "/=", "%="]);
                    let rhs = if d.starts_with('<') || d.starts_with('>') {
                        format!("((int)({e}) & 15)")
                    } else {
                        self.pick(&["3", "-7", "5u", "11"]).to_string()
                    };
                    body.push_str(&format!("  {v} {d} {rhs};\n"));
                }
            }
        }
        for v in &sc.vars {
            body.push_str(&format!("  mix((unsigned long long){});\n", v.name));
        }
        let src = format!(
            "extern void reach_error(void);\n{decls}unsigned long long digest;\n\
             void mix(unsigned long long v) {{ digest = (digest ^ v) * 1099511628211ull; }}\n\
             int main(void) {{\n{body}  if ((digest ^ (digest >> 29)) & 1) reach_error();\n  return 0;\n}}\n"
        );
        (src, n)
    }
}
