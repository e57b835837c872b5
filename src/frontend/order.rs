//! Unspecified evaluation order. C leaves open in which order the operands of most operators
//! (C11 6.5p3) and the arguments of a call (6.5.2.2p10) are evaluated; a function called in one
//! operand runs indeterminately sequenced with the other operand's evaluations. A verdict must
//! hold for every order the standard allows.
//!
//! The front end lowers operands in one order — gcc's on x86: left to right for operators,
//! right to left for the arguments of a call, so that a violation witness lists the values of
//! nondet calls in the order a compiled program consumes them — and records what each operand
//! reads and writes (the variables the commands it added mention and assign, and those of its
//! value, leaving out the fresh variables it made). When one operand writes a variable that
//! another reads or writes, another order could give another result: the execution continues
//! only into an UNKNOWN sink (`unspecified evaluation order`), so no verdict rests on the order
//! chosen. Operands whose only effects are nondet calls do not interfere (each call returns an
//! arbitrary value whatever the order).

use super::builder::Lower;
use crate::bv::TermId;
use crate::cfa::{Gcl, PVar};
use std::collections::BTreeSet;

/// Where the lowering of an operand starts.
#[derive(Clone, Copy, Debug)]
pub struct EffectsMark {
    edges: usize,
    vars: usize,
}

/// What an operand reads and writes (variables that existed before it).
#[derive(Clone, Debug, Default)]
pub struct Effects {
    reads: BTreeSet<PVar>,
    writes: BTreeSet<PVar>,
}

impl Effects {
    /// Whether evaluating `self` and `other` in another order could change a result.
    fn interferes(&self, other: &Effects) -> bool {
        self.writes
            .iter()
            .any(|v| other.reads.contains(v) || other.writes.contains(v))
            || other.writes.iter().any(|v| self.reads.contains(v))
    }
}

impl<'a> Lower<'a> {
    /// The start of an operand's lowering.
    pub fn effects_mark(&self) -> EffectsMark {
        EffectsMark {
            edges: self.cfa.edges.len(),
            vars: self.cfa.vars.len(),
        }
    }

    /// What was read and written since `m`, with the variables of the operand's `values`.
    pub fn effects_since(&self, m: EffectsMark, values: &[TermId]) -> Effects {
        let mut fx = Effects::default();
        let old = |v: PVar| v.index() < m.vars;
        let read = |fx: &mut Effects, t: TermId| {
            for v in self.cfa.tm.free_vars(t) {
                let p = PVar(v.0);
                if old(p) && p.index() < self.cfa.vars.len() {
                    fx.reads.insert(p);
                }
            }
        };
        for e in &self.cfa.edges[m.edges.min(self.cfa.edges.len())..] {
            e.cmd.for_each_atom(&mut |a| match a {
                Gcl::Assume(t, _) => read(&mut fx, *t),
                Gcl::Assign(v, t, _) => {
                    read(&mut fx, *t);
                    if old(*v) {
                        fx.writes.insert(*v);
                    }
                }
                Gcl::Havoc(v, _, _) => {
                    if old(*v) {
                        fx.writes.insert(*v);
                    }
                }
                Gcl::Seq(_) | Gcl::Choice(_) => {}
            });
        }
        for &t in values {
            read(&mut fx, t);
        }
        fx
    }

    /// Ends the execution in an UNKNOWN sink when two of the operands of `what` interfere.
    pub fn check_order(&mut self, operands: &[Effects], what: &str) {
        let clash = operands
            .iter()
            .enumerate()
            .any(|(i, a)| operands[i + 1..].iter().any(|b| a.interferes(b)));
        if clash {
            let t = self.cfa.tm.tru();
            self.sink_if(
                t,
                &format!("unspecified evaluation order: one of the {what} writes what another reads or writes"),
            );
        }
    }
}

impl<'a> Lower<'a> {
    /// Lowers the arguments of a call of `function` in gcc's order, right to left, by
    /// `lower(self, i, later_effects)`, which returns the argument's value and the terms it
    /// consists of; `later_effects` says whether an argument lowered after it has side effects
    /// (its value must then be saved first). Checks that no two arguments interfere. Returns
    /// the values in argument order.
    pub fn call_arguments<T>(
        &mut self,
        function: &str,
        args: &[lang_c::span::Node<lang_c::ast::Expression>],
        mut lower: impl FnMut(&mut Self, usize, bool) -> Result<(T, Vec<TermId>), super::FrontendError>,
    ) -> Result<Vec<T>, super::FrontendError> {
        let any_effects = args.iter().any(|a| super::expr::has_side_effects(&a.node));
        let mut values: Vec<Option<T>> = (0..args.len()).map(|_| None).collect();
        let mut effects = Vec::new();
        for i in (0..args.len()).rev() {
            let later = args[..i]
                .iter()
                .any(|a| super::expr::has_side_effects(&a.node));
            let m = self.effects_mark();
            let (v, terms) = lower(self, i, later)?;
            if any_effects {
                effects.push(self.effects_since(m, &terms));
            }
            values[i] = Some(v);
        }
        if any_effects {
            self.check_order(&effects, &format!("arguments of `{function}`"));
        }
        values
            .into_iter()
            .map(|v| v.ok_or_else(|| super::FrontendError::Internal("argument not lowered".into())))
            .collect()
    }
}
