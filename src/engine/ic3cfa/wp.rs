//! Predecessor cubes: the existential weakest precondition of a cube through one edge, along
//! the path a model of the failing query takes.
//!
//! A relative-induction query `F(i−1,l) ∧ T_e ∧ c′` that is satisfiable gives a state at `l`,
//! the edge's nondet values (its slots) and a successor in `c`. The predecessor obligation is
//! the set of states at `l` that, with **those** nondet values, take the same path through the
//! edge's command and end in `c`:
//!
//! 1. every slot is replaced by the model's value, so a `Havoc` becomes an assignment of a
//!    constant (a havoc has no quantifier-free weakest precondition; fixing its value gives an
//!    under-approximation of the pre-image, which is what keeps every obligation a set of states
//!    that really reach the error, so that reaching the initial location is a real bug);
//! 2. the pre-image under the edge is `enabled_e ∧ c[x ↦ val_x]` (the symbolic execution of
//!    the edge, [`crate::cfa::symex`], substitutes every assignment; alternatives of a `Choice`
//!    are merged with `ite`);
//! 3. that formula is cut down to a cube along the model: a conjunction keeps all its parts, a
//!    disjunction the first part the model satisfies, and every `ite` (Boolean or inside a word
//!    term) the branch the model takes, with its condition (or its negation) added to the cube.
//!    This is the seeds' `split` into choice-free commands (Kleine Büning et al.'s IC3CFA
//!    thesis, Thm. 5.2.7), choosing the one command the model runs instead of enumerating them.
//!
//! Every literal of the result is true in the model's state, and every state satisfying all of
//! them takes the edge with those nondet values into `c`: the cube implies each chosen
//! condition, hence the `ite`-free terms equal the original ones, hence it implies the
//! pre-image. What is left are atoms over program variables (comparisons, equalities, bit
//! tests) and their negations; `and`, `or`, `not` and `ite` never reach the top of a literal.

use crate::bv::Valuation;
use crate::bv::{Node, Op, Sort, TermId, TermManager};
use std::collections::HashMap;

/// Cuts `bool` terms down to cubes along one model (see the module doc).
pub struct Splitter<'v> {
    values: &'v mut Valuation,
    /// `ite`-free versions of terms, with the conditions their choice needed already added.
    resolved: HashMap<TermId, TermId>,
    out: Vec<TermId>,
}

impl<'v> Splitter<'v> {
    pub fn new(values: &'v mut Valuation) -> Splitter<'v> {
        Splitter {
            values,
            resolved: HashMap::new(),
            out: Vec::new(),
        }
    }

    /// Adds literals that imply `t` (when `want`) or its negation, all true in the model, which
    /// must give `t` the value `want`.
    pub fn add(&mut self, tm: &mut TermManager, t: TermId, want: bool) {
        debug_assert_eq!(self.values.holds(tm, t), want, "the model decides the term");
        match tm.node(t) {
            Node::Const(_) => {}
            Node::App(Op::Not, [a, ..]) if tm.sort(a) == Sort::Bool => self.add(tm, a, !want),
            Node::App(op @ (Op::And | Op::Or), [a, b, _]) if tm.sort(a) == Sort::Bool => {
                // A conjunction that holds (a disjunction that fails) needs both parts; otherwise
                // one part that the model decides the same way is enough.
                if (op == Op::And) == want {
                    self.add(tm, a, want);
                    self.add(tm, b, want);
                } else if self.values.holds(tm, a) == want {
                    self.add(tm, a, want);
                } else {
                    self.add(tm, b, want);
                }
            }
            Node::App(Op::Ite, [c, a, b]) if tm.sort(t) == Sort::Bool => {
                let cv = self.values.holds(tm, c);
                self.add(tm, c, cv);
                self.add(tm, if cv { a } else { b }, want);
            }
            _ => {
                let r = self.resolve(tm, t);
                let lit = if want { r } else { tm.not(r) };
                if !tm.is_true(lit) {
                    self.out.push(lit);
                }
            }
        }
    }

    /// `t` without `ite`: each replaced by the branch the model takes, its condition added.
    fn resolve(&mut self, tm: &mut TermManager, t: TermId) -> TermId {
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.resolved.contains_key(&u) {
                continue;
            }
            match tm.node(u) {
                Node::Const(_) | Node::Var(_) => {
                    self.resolved.insert(u, u);
                }
                Node::App(Op::Ite, [c, a, b]) => {
                    let cv = self.values.holds(tm, c);
                    let chosen = if cv { a } else { b };
                    if expanded {
                        let r = self.resolved[&chosen];
                        self.resolved.insert(u, r);
                    } else {
                        self.add(tm, c, cv);
                        stack.push((u, true));
                        stack.push((chosen, false));
                    }
                }
                Node::App(op, args) => {
                    let n = crate::bv::arity(op);
                    if expanded {
                        let new: Vec<TermId> = args[..n].iter().map(|a| self.resolved[a]).collect();
                        let r = if new[..] == args[..n] {
                            u
                        } else {
                            tm.app(op, &new)
                        };
                        self.resolved.insert(u, r);
                    } else {
                        stack.push((u, true));
                        stack.extend(args[..n].iter().map(|&a| (a, false)));
                    }
                }
            }
        }
        self.resolved[&t]
    }

    /// The literals added, sorted and without repetitions.
    pub fn finish(mut self) -> Vec<TermId> {
        self.out.sort();
        self.out.dedup();
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cube_follows_the_model_and_implies_the_formula() {
        let mut tm = TermManager::new();
        let x = tm.var("x", Sort::Bv(8));
        let y = tm.var("y", Sort::Bv(8));
        let three = tm.bv_const(3, 8);
        let c = tm.ult(x, three);
        let one = tm.bv_const(1, 8);
        let x1 = tm.add(x, one);
        // (x < 3 ? x + 1 : y) == 4  ∨  y == x
        let v = tm.ite(c, x1, y);
        let four = tm.bv_const(4, 8);
        let e = tm.eq(v, four);
        let yx = tm.eq(y, x);
        let f = tm.or(e, yx);
        // x = 7, y = 4: the `ite` takes `y`, the first disjunct holds.
        let mut vals = Valuation::of_terms(&tm, [(x, 7), (y, 4)]);
        let mut sp = Splitter::new(&mut vals);
        sp.add(&mut tm, f, true);
        let cube = sp.finish();
        let nc = tm.not(c);
        let y4 = tm.eq(y, four);
        let mut want = vec![nc, y4];
        want.sort();
        assert_eq!(cube, want);
        // x = 1, y = 0: the `ite` takes `x + 1`, which is 2, so the first disjunct fails and
        // the second fails too; the negation is cut down instead.
        let mut vals = Valuation::of_terms(&tm, [(x, 1), (y, 0)]);
        let mut sp = Splitter::new(&mut vals);
        sp.add(&mut tm, f, false);
        let cube = sp.finish();
        let e2 = tm.eq(x1, four);
        let ne2 = tm.not(e2);
        let nyx = tm.not(yx);
        let mut want = vec![c, ne2, nyx];
        want.sort();
        assert_eq!(cube, want);
    }
}
