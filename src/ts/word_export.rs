//! What the word-level exports ([`super::btor2`], [`super::vmt`]) share: the system they write
//! and the order they write its terms in, so that both formats say exactly the same thing.
//!
//! [`ExportedSystem`] is a program's [`super::program::WordLevel`] with its leaves named: the
//! states (the program-counter terms, reset to the initial location, then the state
//! variables, uninitialised, each with its next-state term), the inputs (the slots, one per
//! position of a step's nondet values), the program counter's range as the one constraint, and
//! the error location as the bad states. Names: the program counter is `pc` (or `pc:L<l>` and
//! `pc:done` one-hot), a state variable has its CFA name, a slot is `nondet[k]`; each format
//! makes them legal in its own syntax.
//!
//! [`cone_in_order`] lists the terms a root needs that are not written yet, in the arena's
//! order, so arguments always come before the terms that use them.

use super::program::ProgramSystem;
use crate::bv::{TermId, TermManager};
use crate::cfa::Cfa;
use std::collections::HashSet;

/// A state word: its variable term, its name, its initial value (none: every value is
/// initial) and its next-state term.
#[derive(Clone, Debug)]
pub struct ExportedState {
    pub term: TermId,
    pub name: String,
    pub init: Option<u128>,
    pub next: TermId,
}

/// An input word: its variable term and its name.
#[derive(Clone, Debug)]
pub struct ExportedInput {
    pub term: TermId,
    pub name: String,
}

/// A program's word-level system as the exports write it.
#[derive(Clone, Debug)]
pub struct ExportedSystem {
    /// The program-counter terms first, then the state variables.
    pub states: Vec<ExportedState>,
    /// The slots, by position.
    pub inputs: Vec<ExportedInput>,
    /// What must hold in every state (the binary program counter's range).
    pub constraint: Option<TermId>,
    /// The bad states: the program counter at the error location.
    pub bad: TermId,
}

/// The word-level system of `ps` (encoding `cfa`) with its leaves named.
pub fn exported_system(cfa: &Cfa, ps: &ProgramSystem) -> ExportedSystem {
    let wl = &ps.word_level;
    let init_code = cfa.init.index() as u128;
    let mut states = Vec::new();
    for (k, &t) in ps.pc_terms.iter().enumerate() {
        let init = match ps.pc_terms.len() {
            1 => init_code,
            _ => u128::from(k == cfa.init.index()),
        };
        states.push(ExportedState {
            term: t,
            name: variable_name(&ps.tm, t),
            init: Some(init),
            next: wl.pc_next[k],
        });
    }
    for ((v, _), &next) in ps.state.iter().zip(&wl.next) {
        states.push(ExportedState {
            term: cfa.vars[v.index()].term,
            name: cfa.var(*v).name.clone(),
            init: None,
            next,
        });
    }
    let inputs = (ps.slots.iter().enumerate())
        .map(|(k, s)| ExportedInput {
            term: s.term,
            name: format!("nondet[{k}]"),
        })
        .collect();
    ExportedSystem {
        states,
        inputs,
        constraint: wl.pc_range,
        bad: wl.bad,
    }
}

/// The name of the variable term `t` in the term manager (a variable that is neither a state
/// nor a slot is written as an input of its own under this name).
pub fn variable_name(tm: &TermManager, t: TermId) -> String {
    let v = tm.as_var(t).expect("a variable term");
    tm.var_info(v).name.clone()
}

/// The terms of the cones of `roots` for which `written` is false, in the arena's order
/// (every term after its arguments). The cone stops at written terms.
pub fn cone_in_order(
    tm: &TermManager,
    roots: &[TermId],
    written: impl Fn(TermId) -> bool,
) -> Vec<TermId> {
    let mut seen = HashSet::new();
    let mut stack = roots.to_vec();
    while let Some(x) = stack.pop() {
        if written(x) || !seen.insert(x) {
            continue;
        }
        stack.extend_from_slice(tm.args(x));
    }
    let mut cone: Vec<TermId> = seen.into_iter().collect();
    cone.sort_unstable();
    cone
}
