//! Concrete evaluation of terms under an assignment of the free variables: [`Valuation`], the
//! one evaluator (an assignment and the values of the terms evaluated under it, taking the
//! term manager per call, so that terms can be built between evaluations), and
//! [`Evaluator`], a valuation bound to one manager.

use super::{arity, value, Node, TermId, TermManager, VarId};
use std::collections::HashMap;

/// One assignment of the free variables and the values of the terms evaluated under it
/// (shared sub-terms are evaluated once). Unassigned variables read as 0.
#[derive(Default)]
pub struct Valuation {
    env: HashMap<VarId, u128>,
    memo: HashMap<TermId, u128>,
}

impl Valuation {
    /// The empty assignment.
    pub fn new() -> Valuation {
        Valuation::default()
    }

    /// The assignment that gives each variable term its value (truncated to its width).
    pub fn of_terms(tm: &TermManager, vars: impl IntoIterator<Item = (TermId, u128)>) -> Self {
        let mut out = Valuation::new();
        for (t, value) in vars {
            if let Node::Var(v) = tm.node(t) {
                out.set(tm, v, value);
            }
        }
        out
    }

    /// Assign `value` (truncated to the variable's width) to `v`; forgets the values of terms.
    pub fn set(&mut self, tm: &TermManager, v: VarId, value: u128) {
        let w = tm.var_info(v).sort.width();
        self.env.insert(v, value::truncate(value, w));
        self.memo.clear();
    }

    /// The value of `t` (bits above its width are zero; `bool` is 0 or 1).
    pub fn of(&mut self, tm: &TermManager, t: TermId) -> u128 {
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.memo.contains_key(&u) {
                continue;
            }
            match tm.node(u) {
                Node::Const(c) => {
                    self.memo.insert(u, c);
                }
                Node::Var(v) => {
                    let val = self.env.get(&v).copied().unwrap_or(0);
                    self.memo.insert(u, val);
                }
                Node::App(op, args) => {
                    let n = arity(op);
                    if expanded {
                        let mut vals = [0u128; 3];
                        let mut sorts = [tm.sort(args[0]); 3];
                        for i in 0..n {
                            vals[i] = self.memo[&args[i]];
                            sorts[i] = tm.sort(args[i]);
                        }
                        let r = value::apply(op, &vals[..n], &sorts[..n], tm.sort(u));
                        self.memo.insert(u, r);
                    } else {
                        stack.push((u, true));
                        for &a in &args[..n] {
                            if !self.memo.contains_key(&a) {
                                stack.push((a, false));
                            }
                        }
                    }
                }
            }
        }
        self.memo[&t]
    }

    /// The value of a `bool` term.
    pub fn holds(&mut self, tm: &TermManager, t: TermId) -> bool {
        self.of(tm, t) != 0
    }
}

/// A [`Valuation`] bound to one term manager.
pub struct Evaluator<'a> {
    tm: &'a TermManager,
    valuation: Valuation,
}

impl<'a> Evaluator<'a> {
    /// An evaluator with an empty assignment.
    pub fn new(tm: &'a TermManager) -> Evaluator<'a> {
        Evaluator {
            tm,
            valuation: Valuation::new(),
        }
    }

    /// Assign `value` (truncated to the variable's width) to `v`; clears memoised results.
    pub fn set(&mut self, v: VarId, value: u128) {
        self.valuation.set(self.tm, v, value);
    }

    /// The value of `t` (bits above its width are zero; `bool` is 0 or 1).
    pub fn eval(&mut self, t: TermId) -> u128 {
        self.valuation.of(self.tm, t)
    }

    /// The value of a `bool` term.
    pub fn eval_bool(&mut self, t: TermId) -> bool {
        self.valuation.holds(self.tm, t)
    }
}
