//! Concrete evaluation of terms under an assignment of the free variables.

use super::{arity, value, Node, TermId, TermManager, VarId};
use std::collections::HashMap;

/// Evaluates terms under one assignment of the free variables, memoising shared sub-terms.
///
/// Unassigned variables read as 0.
pub struct Evaluator<'a> {
    tm: &'a TermManager,
    env: HashMap<VarId, u128>,
    memo: HashMap<TermId, u128>,
}

impl<'a> Evaluator<'a> {
    /// An evaluator with an empty assignment.
    pub fn new(tm: &'a TermManager) -> Evaluator<'a> {
        Evaluator {
            tm,
            env: HashMap::new(),
            memo: HashMap::new(),
        }
    }

    /// Assign `value` (truncated to the variable's width) to `v`; clears memoised results.
    pub fn set(&mut self, v: VarId, value: u128) {
        let w = self.tm.var_info(v).sort.width();
        self.env.insert(v, value::truncate(value, w));
        self.memo.clear();
    }

    /// The value of `t` (bits above its width are zero; `bool` is 0 or 1).
    pub fn eval(&mut self, t: TermId) -> u128 {
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.memo.contains_key(&u) {
                continue;
            }
            match self.tm.node(u) {
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
                        let mut sorts = [self.tm.sort(args[0]); 3];
                        for i in 0..n {
                            vals[i] = self.memo[&args[i]];
                            sorts[i] = self.tm.sort(args[i]);
                        }
                        let r = value::apply(op, &vals[..n], &sorts[..n], self.tm.sort(u));
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
    pub fn eval_bool(&mut self, t: TermId) -> bool {
        self.eval(t) != 0
    }
}
