//! The run of a counterexample on the program as written: the CFA the front end built (one
//! edge per atomic command, no `Choice`), replayed with the values the counterexample's nondet
//! calls returned. The printed trace and the violation witness are both read off this run, so
//! what they name is what the program executed, not what a merged edge of a derived CFA
//! contains.
//!
//! The counterexample is a run of a CFA derived from the original by passes (same variables):
//! slicing keeps every havoc of a call ([`crate::cfa::cone_of_influence`]), so the calls'
//! values line up as one sequence; havocs of uninitialised declarations may be sliced away, so
//! those values go by variable instead ([`interp::Nondet::Split`]): either as the
//! counterexample gave them ([`Uninit::AsFound`], the `k`-th run of a declaration taking the
//! `k`-th value the derived run gave it, 0 where the derived CFA no longer havocs it — its
//! value cannot matter there), or 0 ([`Uninit::Zero`], what a compiled program's locals often
//! hold; the violation witness states the values it reads).

use crate::bv::TermId;
use crate::cfa::{interp, Cfa, Gcl, HavocKind, OriginId, PVar};
use std::collections::HashMap;

/// The values uninitialised declarations take in the replay.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Uninit {
    /// The values the counterexample gave them.
    AsFound,
    /// 0.
    Zero,
}

/// What each havocked variable's value comes from.
pub type Kinds<'a> = HashMap<PVar, &'a HavocKind>;

/// The kind of each havocked variable of `cfa`.
pub fn havoc_kinds(cfa: &Cfa) -> Kinds<'_> {
    let mut kinds = HashMap::new();
    for e in &cfa.edges {
        e.cmd.for_each_atom(&mut |a| {
            if let Gcl::Havoc(v, kind, _) = a {
                kinds.insert(*v, kind);
            }
        });
    }
    kinds
}

/// The nondet call results along a run, in order: the result variable and its value.
pub fn returns(kinds: &Kinds<'_>, steps: &[interp::Step]) -> Vec<(PVar, u128)> {
    steps
        .iter()
        .flat_map(|s| s.nondet.iter().copied())
        .filter(|(v, _)| kinds.get(v).is_some_and(|k| k.is_call()))
        .collect()
}

/// The values each variable's uninitialised declaration took along a run, in order.
fn declared(kinds: &Kinds<'_>, steps: &[interp::Step]) -> HashMap<PVar, Vec<u128>> {
    let mut out: HashMap<PVar, Vec<u128>> = HashMap::new();
    for &(v, x) in steps.iter().flat_map(|s| s.nondet.iter()) {
        if kinds.get(&v).is_some_and(|k| !k.is_call()) {
            out.entry(v).or_default().push(x);
        }
    }
    out
}

/// Replays `steps`, a run of `ran_on` (a CFA derived from `original` by passes, or `original`
/// itself), on `original` for at most `step_limit` steps: its outcome and steps there.
pub fn replay(
    original: &Cfa,
    ran_on: &Cfa,
    steps: &[interp::Step],
    uninit: Uninit,
    step_limit: usize,
) -> (interp::Outcome, Vec<interp::Step>) {
    let kinds = havoc_kinds(ran_on);
    let calls: Vec<u128> = returns(&kinds, steps).iter().map(|(_, x)| *x).collect();
    let uninit = match uninit {
        Uninit::AsFound => declared(&kinds, steps),
        Uninit::Zero => HashMap::new(),
    };
    let opts = interp::RunOptions {
        step_limit,
        ..interp::RunOptions::default()
    };
    interp::run_nondet(
        original,
        interp::Nondet::Split {
            calls: &calls,
            uninit: &uninit,
        },
        opts,
    )
}

/// Sets whether `v` holds an uninitialised value (`Some` of it), counting those that do.
fn write(v: PVar, x: Option<u128>, uninit: &mut [Option<u128>], live: &mut usize) {
    let slot = &mut uninit[v.index()];
    *live = *live + usize::from(x.is_some()) - usize::from(slot.is_some());
    *slot = x;
}

/// A read of an uninitialised variable's value along a run: the step, the variable, its value
/// and the origin of the reading command.
pub struct UninitRead {
    pub step: usize,
    pub var: PVar,
    pub value: u128,
    pub origin: OriginId,
}

/// The first read of each uninitialised value along a run of the CFA the front end built
/// (whose edges have no `Choice`, so a step executes every atom of its edge, in order).
pub fn uninitialised_reads(
    cfa: &Cfa,
    kinds: &Kinds<'_>,
    steps: &[interp::Step],
) -> Vec<UninitRead> {
    let mut uninit: Vec<Option<u128>> = vec![None; cfa.vars.len()];
    let mut live = 0usize;
    let mut free: HashMap<TermId, Vec<PVar>> = HashMap::new();
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let mut taken = step.nondet.iter();
        let mut read = |t: TermId, o: OriginId, uninit: &mut [Option<u128>], live: &mut usize| {
            if *live == 0 {
                return;
            }
            let vars = free.entry(t).or_insert_with(|| {
                cfa.tm
                    .free_vars(t)
                    .into_iter()
                    .map(|v| PVar(v.0))
                    .filter(|v| v.index() < cfa.vars.len())
                    .collect()
            });
            for &v in vars.iter() {
                if let Some(value) = uninit[v.index()].take() {
                    *live -= 1;
                    out.push(UninitRead {
                        step: i,
                        var: v,
                        value,
                        origin: o,
                    });
                }
            }
        };
        cfa.edge(step.edge).cmd.for_each_atom(&mut |a| match a {
            Gcl::Assume(t, o) => read(*t, *o, &mut uninit, &mut live),
            Gcl::Assign(v, t, o) => {
                read(*t, *o, &mut uninit, &mut live);
                write(*v, None, &mut uninit, &mut live);
            }
            Gcl::Havoc(v, _, _) => {
                // The havocs of a step took the values of `step.nondet`, in order.
                let x = taken.next().map_or(0, |(_, x)| *x);
                let fresh = matches!(kinds.get(v), Some(HavocKind::Uninitialized));
                write(*v, fresh.then_some(x), &mut uninit, &mut live);
            }
            Gcl::Seq(_) | Gcl::Choice(_) => {}
        });
    }
    out
}

/// Whether the path of a run of `cfa` (the CFA the front end built, whose edges have no
/// `Choice`) depends on the values its uninitialised declarations took: executed symbolically
/// along its steps, with the calls' values as constants and each uninitialised value a fresh
/// variable, some guard of the path (the error's check included) is not valid. When none is,
/// every value of those declarations takes the same path with the same calls to the same end.
/// Decided by a fresh `backend` solver; `true` when it is interrupted.
pub fn depends_on_uninitialised(
    cfa: &Cfa,
    steps: &[interp::Step],
    backend: crate::sat::Backend,
    interrupter: &crate::sat::Interrupter,
) -> bool {
    let mut tm = cfa.tm.clone();
    let mut env: crate::cfa::symex::Env = HashMap::new();
    let mut guards = Vec::new();
    let mut fresh = 0usize;
    for step in steps {
        let mut taken = step.nondet.iter();
        cfa.edge(step.edge).cmd.for_each_atom(&mut |a| match a {
            Gcl::Assume(t, _) => {
                let g = crate::cfa::symex::subst(&cfa.vars, &mut tm, *t, &env);
                if tm.const_value(g).is_none() {
                    guards.push(g);
                }
            }
            Gcl::Assign(v, t, _) => {
                let x = crate::cfa::symex::subst(&cfa.vars, &mut tm, *t, &env);
                env.insert(*v, x);
            }
            Gcl::Havoc(v, kind, _) => {
                let sort = tm.sort(cfa.vars[v.index()].term);
                let x = match kind {
                    HavocKind::Uninitialized => {
                        fresh += 1;
                        tm.var(format!("uninitialised#{fresh}"), sort)
                    }
                    _ => {
                        let value = taken.next().map_or(0, |(_, x)| *x);
                        tm.constant(value, sort)
                    }
                };
                if matches!(kind, HavocKind::Uninitialized) {
                    taken.next();
                }
                env.insert(*v, x);
            }
            Gcl::Seq(_) | Gcl::Choice(_) => {}
        });
    }
    if guards.is_empty() {
        return false;
    }
    let all = tm.and_all(guards);
    !super::term_valid(&tm, all, backend, interrupter)
}
