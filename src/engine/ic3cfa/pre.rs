//! What IC3CFA can tell about an edge without a solver: the weakest precondition of each cube
//! literal through it, and from those, predecessor cubes (the IC3CFA thesis; the RWTH
//! paper's "Pre-Cubes") and literals the edge's own assumptions imply (the IC3CFA thesis).
//!
//! An edge's symbolic execution gives each state variable's value after it, `val_x` (over the
//! variables before it and the edge's nondet slots), and its enabling condition `enabled_e`.
//! The existential precondition of a cube `c = ⋀ l_i` is then
//! `wp_e(c) = ∃ slots. enabled_e ∧ ⋀ w_i` with `w_i = l_i[x ↦ val_x]`: the literal-wise
//! preconditions share the slots, which is why they compose (Lemma 3 of the RWTH paper).
//!
//! - **Predecessor cube.** If `F(i−1, l)` has a lemma `¬c̄` with every literal of `c̄` among the
//!   `w_i` and the conjuncts of `enabled_e`, then every state of `wp_e(c)` violates it, so
//!   `F(i−1, l) ∧ T_e ∧ c′` is unsatisfiable; and so is the query for `g = { l_i | w_i ∈ c̄ }`,
//!   whose precondition implies `c̄` just as well. `g` is the edge's generalisation, with no SAT
//!   call. A literal whose precondition is `false` is one on its own.
//! - **Assumed literal.** If `w_p` is `true` or a conjunct of `enabled_e`, then
//!   `wp_e(c ∖ {p}) = wp_e(c)`: the edge's relative induction is the same with or without `p`,
//!   which can be dropped for this edge without a query.
//!
//! Predecessor cubes answer the queries of generalisation and of pushing, not an obligation's
//! first query: that query's unsatisfiable core picks the literals generalisation starts from,
//! and whichever lemma happens to match may pick worse ones. Measured on a counter loop
//! (`while (x < K) x += 2; assert(x % 2 == 0)`): the core keeps `x % 2 != 0` and IC3CFA proves
//! it at once, while a matching lemma kept `x + 2 < K` and the run enumerated the counter's
//! values, a lemma per level.
//!
//! Matching is syntactic on hash-consed terms, after the term manager's rewrites only, which
//! hold modulo 2^w (the IC3CFA thesis' example rewrites `x + 1 > 1` to `x > 0`, which is wrong
//! at `x = INT_MAX`; nothing here does).

use super::{Cube, Ic3cfa};
use crate::bv::{Node, Op, Sort, TermId, TermManager};
use crate::cfa::symex;
use std::collections::HashMap;

/// The syntactic view of one edge (see the module doc).
pub(super) struct EdgeWp {
    /// Each state variable's term ↦ its value after the edge.
    pub after: HashMap<TermId, TermId>,
    /// The conjuncts of the edge's enabling condition, sorted.
    assumed: Vec<TermId>,
    /// Images of sub-terms under `after`, shared by every literal.
    images: HashMap<TermId, TermId>,
}

/// The conjuncts of a `bool` term, flattening nested conjunctions.
fn conjuncts(tm: &TermManager, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        match tm.node(u) {
            Node::App(Op::And, [a, b, _]) if tm.sort(a) == Sort::Bool => {
                stack.push(a);
                stack.push(b);
            }
            _ if tm.is_true(u) => {}
            _ => out.push(u),
        }
    }
    out.sort();
    out.dedup();
    out
}

impl Ic3cfa<'_> {
    /// The syntactic view of edge `e`, made on first use.
    pub(super) fn edge_wp(&mut self, e: usize) -> &mut EdgeWp {
        if self.wps[e].is_none() {
            let ex = &self.ps.execs[e];
            let after = self
                .ps
                .state
                .iter()
                .map(|(v, _)| {
                    let t = self.cfa.var(*v).term;
                    (t, symex::value(&self.cfa.vars, &ex.env, *v))
                })
                .collect();
            let assumed = conjuncts(&self.tm, self.ps.enabled[e]);
            self.wps[e] = Some(EdgeWp {
                after,
                assumed,
                images: HashMap::new(),
            });
        }
        self.wps[e].as_mut().expect("made above")
    }

    /// The weakest precondition of literal `lit` through edge `e` (without the edge's
    /// enabling condition).
    pub(super) fn lit_wp(&mut self, e: usize, lit: TermId) -> TermId {
        self.edge_wp(e);
        let w = self.wps[e].as_mut().expect("made by edge_wp");
        self.tm.substitute_cached(lit, &w.after, &mut w.images)
    }

    /// Whether edge `e`'s assumptions imply the precondition of `lit`, so that `lit` can be
    /// dropped from a cube for this edge without changing its relative induction.
    pub(super) fn assumed(&mut self, e: usize, lit: TermId) -> bool {
        let w = self.lit_wp(e, lit);
        self.tm.is_true(w)
            || self.wps[e]
                .as_ref()
                .is_some_and(|x| x.assumed.binary_search(&w).is_ok())
    }

    /// A generalisation of `cube` along `e` at `level` read off a lemma of `e`'s source location
    /// (a predecessor cube), when there is one: then `F(level−1, from) ∧ T_e ∧ g′` is
    /// unsatisfiable for the returned `g ⊆ cube`, without a query.
    pub(super) fn precube(&mut self, e: usize, level: usize, cube: &[TermId]) -> Option<Cube> {
        let from = self.cfa.edges[e].from;
        let is_init = from == self.cfa.init;
        if !is_init && level - 1 < self.dist[from.index()] {
            return Some(Vec::new());
        }
        self.edge_wp(e);
        let wps: Vec<(TermId, TermId)> = cube.iter().map(|&l| (l, self.lit_wp(e, l))).collect();
        if let Some(&(l, _)) = wps.iter().find(|(_, w)| self.tm.is_false(*w)) {
            return Some(vec![l]);
        }
        if is_init {
            // Every state at the initial location is in every frame.
            return None;
        }
        let assumed = &self.wps[e].as_ref().expect("made by lit_wp").assumed;
        let mut known: Vec<TermId> = wps.iter().map(|&(_, w)| w).collect();
        known.extend_from_slice(assumed);
        known.sort();
        known.dedup();
        let hit = self.lemmas.excluding(from.index(), level - 1, &known)?;
        Some(
            wps.iter()
                .filter(|(_, w)| hit.binary_search(w).is_ok())
                .map(|&(l, _)| l)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjuncts_flatten_nested_conjunctions() {
        let mut tm = TermManager::new();
        let x = tm.var("x", Sort::Bv(8));
        let y = tm.var("y", Sort::Bv(8));
        let a = tm.ult(x, y);
        let b = tm.eq(x, y);
        let c = tm.ule(y, x);
        let bc = tm.and(b, c);
        let t = tm.and(a, bc);
        let mut want = vec![a, b, c];
        want.sort();
        assert_eq!(conjuncts(&tm, t), want);
        let tru = tm.tru();
        assert!(conjuncts(&tm, tru).is_empty());
        let d = tm.or(a, b);
        assert_eq!(conjuncts(&tm, d), vec![d]);
    }
}
