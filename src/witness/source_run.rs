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

use crate::cfa::{interp, Cfa, Gcl, HavocKind, PVar};
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
