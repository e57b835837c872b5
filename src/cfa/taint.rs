//! Which values of a run come from functions without a definition, and whether the path of the
//! run depends on them.
//!
//! A call of a function that has neither a definition nor a model returns a nondet value and
//! may write the globals it can see ([`super::HavocKind::UndefinedCall`]); the real function
//! returns and writes what it does, which the program does not state. A counterexample
//! depends on such a value when some guard evaluated along it (an `Assume`, taken or tried and
//! failed, including the checks that lead to the error location) reads it, directly or through
//! values computed from it: then another function of the same name could make the execution
//! go elsewhere. When no guard reads one, every value the functions could produce leads along
//! the same path to the same end. The analysis is conservative: a guard is taken to read
//! every variable its term mentions.

use super::{Cfa, Gcl, HavocKind, PVar};
use crate::bv::{TermId, VarId};
use std::collections::HashMap;

/// The taint state of a run: for each variable, the function (index into `functions`, plus 1;
/// 0 for none) whose value it holds or was computed from.
pub struct Taint {
    source: Vec<u32>,
    functions: Vec<String>,
    /// Undo log of `source` for commands that fail: (variable, previous source).
    log: Vec<(PVar, u32)>,
    support: HashMap<TermId, Vec<PVar>>,
    /// The first function a guard depended on.
    pub depends_on: Option<String>,
}

impl Taint {
    pub fn new(cfa: &Cfa) -> Taint {
        Taint {
            source: vec![0; cfa.vars.len()],
            functions: Vec::new(),
            log: Vec::new(),
            support: HashMap::new(),
            depends_on: None,
        }
    }

    /// Whether any havoc of `cfa` is a call of a function without a definition.
    pub fn needed(cfa: &Cfa) -> bool {
        let mut found = false;
        for e in &cfa.edges {
            e.cmd.for_each_atom(&mut |a| {
                found |= matches!(a, Gcl::Havoc(_, HavocKind::UndefinedCall { .. }, _));
            });
        }
        found
    }

    /// The source of a term's value: the first tainted variable it mentions.
    fn source_of(&mut self, cfa: &Cfa, t: TermId) -> u32 {
        if !self.support.contains_key(&t) {
            let vars = cfa
                .tm
                .free_vars(t)
                .into_iter()
                .filter(|v: &VarId| (v.0 as usize) < self.source.len())
                .map(|v| PVar(v.0))
                .collect();
            self.support.insert(t, vars);
        }
        self.support[&t]
            .iter()
            .map(|v| self.source[v.index()])
            .find(|&s| s != 0)
            .unwrap_or(0)
    }

    fn set(&mut self, v: PVar, s: u32) {
        self.log.push((v, self.source[v.index()]));
        self.source[v.index()] = s;
    }

    /// A guard `t` was evaluated. (A CFA variable `PVar(i)` is the term variable `VarId(i)`.)
    pub fn guard(&mut self, cfa: &Cfa, t: TermId) {
        let s = self.source_of(cfa, t);
        if s != 0 && self.depends_on.is_none() {
            self.depends_on = Some(self.functions[s as usize - 1].clone());
        }
    }

    /// `v := t` was executed.
    pub fn assign(&mut self, cfa: &Cfa, v: PVar, t: TermId) {
        let s = self.source_of(cfa, t);
        self.set(v, s);
    }

    /// `v` was havocked.
    pub fn havoc(&mut self, v: PVar, kind: &HavocKind) {
        let s = match kind {
            HavocKind::UndefinedCall { function, .. } => {
                let i = match self.functions.iter().position(|f| f == function) {
                    Some(i) => i,
                    None => {
                        self.functions.push(function.clone());
                        self.functions.len() - 1
                    }
                };
                i as u32 + 1
            }
            _ => 0,
        };
        self.set(v, s);
    }

    /// The length of the undo log (to roll back to).
    pub fn mark(&self) -> usize {
        self.log.len()
    }

    /// Undoes the changes after `mark` (a command that failed).
    pub fn rollback(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some((v, s)) = self.log.pop() {
                self.source[v.index()] = s;
            }
        }
    }

    /// Forgets the undo log (a step was taken for good).
    pub fn commit(&mut self) {
        self.log.clear();
    }
}
