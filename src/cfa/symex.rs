//! Symbolic execution of a guarded command: its guard and the new values of the variables it
//! writes, as terms over the values before it.
//!
//! `Assume` conjoins its condition to the guard; `Assign` substitutes; each `Havoc` asks the
//! caller for its value (a fresh input in the system encoding, a chosen term in loop
//! acceleration); `Seq` composes; `Choice` merges its alternatives with `ite`, the first that
//! completes winning, as in the interpreter (by the CFA's invariant at most one completes).
//! The same executor serves the transition-system encoding and loop acceleration, so both read
//! a command the same way.

use super::{Gcl, PVar, VarInfo};
use crate::bv::{TermId, TermManager};
use std::collections::{HashMap, HashSet};

/// The values of the variables written so far; a variable not in the map keeps the value of
/// its own term.
pub type Env = HashMap<PVar, TermId>;

/// The result of executing a command: when it completes, what it writes, and its havocs.
#[derive(Clone, Debug)]
pub struct Exec {
    /// When the command completes (over the values before it and the havocs' values).
    pub guard: TermId,
    /// The value of every variable written, after the command.
    pub env: Env,
    /// Each havoc in execution order: its variable, its value and when it completes given
    /// that the whole command does.
    pub havocs: Vec<(PVar, TermId, TermId)>,
}

/// The value of `v` in `env` (`vars` are the CFA's program variables).
pub fn value(vars: &[VarInfo], env: &Env, v: PVar) -> TermId {
    env.get(&v).copied().unwrap_or(vars[v.index()].term)
}

/// `t` with every variable written in `env` replaced by its value there.
pub fn subst(vars: &[VarInfo], tm: &mut TermManager, t: TermId, env: &Env) -> TermId {
    if env.is_empty() {
        return t;
    }
    let map: HashMap<TermId, TermId> = env
        .iter()
        .map(|(v, &x)| (vars[v.index()].term, x))
        .collect();
    tm.substitute(t, &map)
}

/// Executes `g` from `env` in `tm` (a manager extending the CFA's, whose program variables are
/// `vars`); `havoc` gives the value of each `Havoc` of a variable.
pub fn exec(
    vars: &[VarInfo],
    tm: &mut TermManager,
    g: &Gcl,
    env: Env,
    havoc: &mut dyn FnMut(&mut TermManager, PVar) -> TermId,
) -> Exec {
    let tru = tm.tru();
    match g {
        Gcl::Assume(c, _) => Exec {
            guard: subst(vars, tm, *c, &env),
            env,
            havocs: Vec::new(),
        },
        Gcl::Assign(v, t, _) => {
            let x = subst(vars, tm, *t, &env);
            let mut env = env;
            env.insert(*v, x);
            Exec {
                guard: tru,
                env,
                havocs: Vec::new(),
            }
        }
        Gcl::Havoc(v, _, _) => {
            let t = havoc(tm, *v);
            let mut env = env;
            env.insert(*v, t);
            Exec {
                guard: tru,
                env,
                havocs: vec![(*v, t, tru)],
            }
        }
        Gcl::Seq(gs) => {
            let mut acc = Exec {
                guard: tru,
                env,
                havocs: Vec::new(),
            };
            for g in gs {
                let r = exec(vars, tm, g, std::mem::take(&mut acc.env), havoc);
                acc.guard = tm.and(acc.guard, r.guard);
                acc.env = r.env;
                acc.havocs.extend(r.havocs);
            }
            acc
        }
        Gcl::Choice(alts) => {
            let base = env;
            let results: Vec<Exec> = alts
                .iter()
                .map(|a| exec(vars, tm, a, base.clone(), havoc))
                .collect();
            let guard = tm.or_all(results.iter().map(|r| r.guard));
            let changed: HashSet<PVar> =
                results.iter().flat_map(|r| r.env.keys().copied()).collect();
            let mut env = base.clone();
            let mut changed: Vec<PVar> = changed.into_iter().collect();
            changed.sort();
            for v in changed {
                let mut x = value(vars, &results[results.len() - 1].env, v);
                for r in results.iter().rev().skip(1) {
                    let y = value(vars, &r.env, v);
                    x = tm.ite(r.guard, y, x);
                }
                env.insert(v, x);
            }
            let mut havocs = Vec::new();
            for r in &results {
                for &(v, t, c) in &r.havocs {
                    let c = tm.and(r.guard, c);
                    havocs.push((v, t, c));
                }
            }
            Exec { guard, env, havocs }
        }
    }
}
