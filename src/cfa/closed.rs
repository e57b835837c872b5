//! Closed forms of self-loops whose variables move polynomially, for jumps whose
//! counterexamples are replayed before they count.
//!
//! After `k` more iterations of a loop (each havoc taking the value its variable has after the
//! first iteration, as in [`accel`](super::accel)), a variable whose value is a polynomial of
//! degree `d` in `k` is, by Newton's forward-difference formula,
//!
//! ```text
//! v(k) = Σ_{j ≤ d} Δʲv(0) · C(k, j)
//! ```
//!
//! with `Δʲv(0)` the `j`-th finite difference of the values over the first `d + 1` iterations
//! (an integer combination of them, so the identity holds modulo `2^w` whenever it holds over
//! the integers) and `C(k, j)` a binomial coefficient, computed modulo `2^w` without division:
//! the falling factorial `k(k−1)…(k−j+1)` modulo `2^(w+e)`, with `e` the exponent of 2 in `j!`,
//! shifted right by `e` and multiplied by the inverse of `j!`'s odd part. A loop of constant
//! increments has degree 1; `s += i; i++` gives `s` degree 2, cubes by finite differences
//! degree 3.
//!
//! Only a loop whose written values do not depend on a branch (no `ite` in them) is looked at
//! (a loop that branches on a flag it does not move is split into its alternatives by
//! [`accel`](super::accel), each looked at alone). The coefficients are written as sums of
//! monomials ([`crate::bv::poly`]), without the subterms that cancel in the differences.
//! The degree is found on sampled states (the differences of order `d + 1` and `d + 2` vanish
//! on all of them), which is not a proof: a loop whose variables move polynomially for the
//! sampled values only would get a wrong closed form. So the jump made from a closed form is
//! **unproved** (unlike the jumps of constant increments, which are proved by induction): a
//! counterexample through it counts only when its iterations, taken one by one on the
//! interpreter over the original CFA, reach the error too — which `verify` checks before the
//! portfolio accepts it. The closed form is what lets BMC ask for the iteration count at which
//! the property fails, thousands of iterations deep, in one step.

use super::accel::iterate;
use super::symex::{self, Env};
use super::{Gcl, PVar, VarInfo};
use crate::bv::poly::{inverse, Converter};
use crate::bv::{Evaluator, Node, Op, TermId, TermManager};
use std::collections::BTreeMap;

/// The highest degree looked for.
pub const MAX_DEGREE: usize = 3;

/// The widest variable a closed form is made for.
const MAX_WIDTH: u32 = 64;

/// The sampled states the degree is found on.
const SAMPLES: usize = 8;

/// The closed forms of a loop's written variables.
pub struct Closed {
    /// For each variable the loop writes, `Δʲv(0)` for `j = 0..=d` (terms over the variables'
    /// values before the iterations, of the variable's width).
    pub coefficients: BTreeMap<PVar, Vec<TermId>>,
}

impl Closed {
    /// The closed forms of the variables `cmd` writes, when each is a polynomial of degree at
    /// most [`MAX_DEGREE`] in the iteration count on every sampled state and some variable
    /// moves; `None` otherwise.
    pub fn find(vars: &[VarInfo], tm: &mut TermManager, cmd: &Gcl) -> Option<Closed> {
        // The first iteration decides whether the loop is looked at, before the others are made.
        let first = iterate(vars, tm, cmd, Env::new()).env;
        let mut written: Vec<PVar> = first.keys().copied().collect();
        written.sort();
        if written.is_empty() || written.iter().any(|v| vars[v.index()].ty.width > MAX_WIDTH) {
            return None;
        }
        // A branch the values depend on makes them piecewise polynomial at best.
        let values: Vec<TermId> = written.iter().map(|v| first[v]).collect();
        if !branch_free(tm, &values) {
            return None;
        }
        let mut iterates: Vec<Env> = vec![Env::new(), first];
        for _ in 1..MAX_DEGREE + 2 {
            let last = iterates.last().cloned().unwrap_or_default();
            iterates.push(iterate(vars, tm, cmd, last).env);
        }
        // The finite differences of every order, per variable: `table[v][j][i] = Δʲv(i)`.
        let mut tables = BTreeMap::new();
        for &v in &written {
            let values: Vec<TermId> = iterates
                .iter()
                .map(|env| symex::value(vars, env, v))
                .collect();
            let mut table = vec![values];
            while table.last().is_some_and(|row| row.len() > 1) {
                let row = table.last().cloned().unwrap_or_default();
                let next = row.windows(2).map(|p| tm.sub(p[1], p[0])).collect();
                table.push(next);
            }
            tables.insert(v, table);
        }
        let degree = degrees(vars, tm, &tables)?;
        if degree.values().all(|&d| d == 0) {
            return None;
        }
        let coefficients = tables
            .into_iter()
            .map(|(v, table)| {
                let d = degree[&v];
                let width = vars[v.index()].ty.width;
                let c = table
                    .iter()
                    .take(d + 1)
                    .map(|row| normal(tm, row[0], width));
                (v, c.collect())
            })
            .collect();
        Some(Closed { coefficients })
    }

    /// The highest degree of a variable.
    pub fn degree(&self) -> usize {
        self.coefficients
            .values()
            .map(|c| c.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
    }

    /// The variables after `k` iterations (`k` a term of any width, read as unsigned), each in
    /// its own width.
    pub fn at(&self, vars: &[VarInfo], tm: &mut TermManager, k: TermId) -> Env {
        let mut env = Env::new();
        for (&v, c) in &self.coefficients {
            let width = vars[v.index()].ty.width;
            env.insert(v, newton(tm, c, k, width));
        }
        env
    }

    /// No signed variable the loop moves leaves its type's range at `k` iterations: its closed
    /// form computed in a width where it cannot wrap (for coefficients that are the integers
    /// their signed values say, and `k` below `2^count_width`, which the caller ensures) lies in
    /// the range.
    pub fn in_range(
        &self,
        vars: &[VarInfo],
        tm: &mut TermManager,
        k: TermId,
        count_width: u32,
    ) -> TermId {
        let mut ok = tm.tru();
        for (&v, c) in &self.coefficients {
            let ty = vars[v.index()].ty;
            if !ty.signed || c.len() < 2 {
                continue;
            }
            let d = (c.len() - 1) as u32;
            let wide = (ty.width + count_width * d + 2).min(125);
            let terms: Vec<TermId> = c.iter().map(|&t| tm.sext(t, wide)).collect();
            let x = newton(tm, &terms, k, wide);
            ok = super::accel::and_in_range(tm, ok, x, ty);
        }
        ok
    }
}

/// The degree of each variable, from its table of finite differences (`table[j][i] = Δʲv(i)`):
/// the least `d` whose differences of order `d + 1` (at two points) vanish on every sampled
/// state; `None` when some variable's exceeds [`MAX_DEGREE`].
fn degrees(
    vars: &[VarInfo],
    tm: &TermManager,
    tables: &BTreeMap<PVar, Vec<Vec<TermId>>>,
) -> Option<BTreeMap<PVar, usize>> {
    let roots: Vec<TermId> = tables
        .values()
        .flat_map(|t| t.iter().flatten().copied())
        .collect();
    let mut free: Vec<_> = roots.iter().flat_map(|&t| tm.free_vars(t)).collect();
    free.sort();
    free.dedup();
    let mut degree: BTreeMap<PVar, usize> = tables.keys().map(|&v| (v, 0)).collect();
    let mut seed = 0x51f1_5e3d_a17c_e55du64;
    for sample in 0..SAMPLES {
        let mut ev = Evaluator::new(tm);
        for &x in &free {
            seed = super::accel::splitmix(seed);
            ev.set(x, if sample == 0 { 0 } else { seed as u128 });
        }
        for (v, table) in tables {
            let width = vars[v.index()].ty.width;
            let zero = |ev: &mut Evaluator<'_>, t: TermId| {
                crate::bv::value::truncate(ev.eval(t), width) == 0
            };
            let d = degree.get_mut(v)?;
            while !(zero(&mut ev, table[*d + 1][0]) && zero(&mut ev, table[*d + 1][1])) {
                *d += 1;
                if *d > MAX_DEGREE {
                    return None;
                }
            }
        }
    }
    Some(degree)
}

/// The most monomials a coefficient is written with as a sum of them.
const MAX_MONOMIALS: usize = 16;

/// `t` as the sum of the monomials of its polynomial, when they are few: the differences of
/// iterates keep every subterm they cancel (`(i + x + 1) − i`), and each becomes a multiplier
/// in the closed form, where `x + 1` is one adder.
fn normal(tm: &mut TermManager, t: TermId, width: u32) -> TermId {
    let p = Converter::new(tm).poly(t, width);
    if p.terms().count() > MAX_MONOMIALS {
        return t;
    }
    p.term(tm)
}

/// No term under `roots` is an `ite`.
fn branch_free(tm: &TermManager, roots: &[TermId]) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = roots.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if matches!(tm.node(t), Node::App(Op::Ite, _)) {
            return false;
        }
        stack.extend_from_slice(tm.args(t));
    }
    true
}

/// `Σ_j c_j · C(k, j)` in `width` bits.
fn newton(tm: &mut TermManager, c: &[TermId], k: TermId, width: u32) -> TermId {
    let mut sum = c[0];
    for (j, &cj) in c.iter().enumerate().skip(1) {
        let b = binomial(tm, k, j as u32, width);
        let term = tm.mul(cj, b);
        sum = tm.add(sum, term);
    }
    sum
}

/// `C(k, j)` modulo `2^width` (`k` read as unsigned; `width + 3 ≤ 128` for `j ≤ 3`).
pub fn binomial(tm: &mut TermManager, k: TermId, j: u32, width: u32) -> TermId {
    let factorial: u128 = (1..=j as u128).product();
    let e = factorial.trailing_zeros();
    let odd = factorial >> e;
    let wide = width + e;
    let kw = tm.resize(k, wide, false);
    let mut product = tm.bv_const(1, wide);
    for i in 0..j {
        let offset = tm.bv_const(i as u128, wide);
        let factor = tm.sub(kw, offset);
        product = tm.mul(product, factor);
    }
    let shifted = tm.extract(product, wide - 1, e);
    let inverse = tm.bv_const(inverse(odd, width), width);
    tm.mul(shifted, inverse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::Sort;
    use proptest::prelude::*;

    proptest! {
        /// `C(k, j)` modulo `2^w` as a term has the value of the binomial coefficient over the
        /// integers, reduced (a wrong shift or inverse fails it for odd or even `k`).
        #[test]
        fn binomials_have_their_integer_values(
            k in any::<u32>(),
            j in 0u32..=MAX_DEGREE as u32,
            width in prop::sample::select(vec![1u32, 7, 8, 16, 31, 32, 64, 100]),
        ) {
            let mut tm = TermManager::new();
            let kv = tm.var("k", Sort::Bv(32));
            let b = binomial(&mut tm, kv, j, width);
            let mut ev = Evaluator::new(&tm);
            if let Some(v) = tm.as_var(kv) {
                ev.set(v, k as u128);
            }
            let k = k as u128;
            let exact = (0..j as u128).fold(1u128, |acc, i| acc * (k - i.min(k)))
                / (1..=j as u128).product::<u128>();
            prop_assert_eq!(ev.eval(b), crate::bv::value::truncate(exact, width));
        }
    }
}
