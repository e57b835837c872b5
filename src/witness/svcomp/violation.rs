//! The waypoints of a violation witness: the values a counterexample's nondet calls return, at
//! their calls, and the failing statement.
//!
//! The counterexample is replayed on the CFA the front end built (one edge per statement), with
//! the calls returning the values they returned on the verified (or accelerated) CFA and
//! uninitialised declarations taking 0, as a compiled program's would. That replay gives the
//! failing statement. A counterexample too long to replay step by step (a loop of millions of
//! iterations that acceleration jumped over) keeps the calls of the run that found it — each
//! nondet result is a variable of its own, positioned at its call — and takes the target from
//! the program's only statement that reaches the error, when there is only one.

use super::{Waypoint, WaypointKind};
use crate::bv::value::to_signed;
use crate::cfa::{interp, Cfa, Gcl, HavocKind, PVar, SrcPos};
use std::collections::HashMap;

/// The most steps of the replay on the program as written.
const REPLAY_STEPS: usize = 4_000_000;

/// Why a counterexample gives no violation witness.
#[derive(Debug, thiserror::Error)]
pub enum ViolationError {
    #[error("the nondet values do not reach the error on the program as written (the run ends with {0})")]
    NoError(String),
    #[error("the counterexample is too long to replay and several statements reach the error")]
    TargetUnknown,
    #[error("the failing statement has no source position")]
    NoTarget,
    #[error("the counterexample is too long to replay and calls nondet functions in a loop acceleration jumped over (each iteration's value would be a waypoint)")]
    JumpedCalls,
}

/// The waypoints of a counterexample: `steps`, a run of `ran_on` that reaches the error, and
/// `original`, the CFA the front end built, from which `ran_on` derives (same variables).
pub fn waypoints(
    original: &Cfa,
    ran_on: &Cfa,
    steps: &[interp::Step],
) -> Result<Vec<Waypoint>, ViolationError> {
    let ran_kinds = havoc_kinds(ran_on);
    let calls: Vec<u128> = returns(&ran_kinds, steps).iter().map(|(_, x)| *x).collect();
    let opts = interp::RunOptions {
        step_limit: REPLAY_STEPS,
        uninit_zero: true,
        ..interp::RunOptions::default()
    };
    let (outcome, replay) = interp::run_with(original, &calls, opts);
    let (mut out, target) = match outcome {
        interp::Outcome::Error { .. } => {
            let last = replay.last().ok_or(ViolationError::NoTarget)?;
            let edge = original.edge(last.edge);
            let pos = last_origin(original, &edge.cmd).ok_or(ViolationError::NoTarget)?;
            (
                waypoints_of(original, &havoc_kinds(original), &replay),
                (pos, function_of(original, edge)),
            )
        }
        _ if jumps_over_calls(ran_on, &ran_kinds, steps) => {
            return Err(ViolationError::JumpedCalls)
        }
        interp::Outcome::StepLimit { .. } => {
            let target = match only_error_statement(original) {
                Ok(t) => t,
                Err(e) => last_statement(ran_on, steps).ok_or(e)?,
            };
            (waypoints_of(ran_on, &ran_kinds, steps), target)
        }
        other => return Err(ViolationError::NoError(format!("{other:?}"))),
    };
    out.push(Waypoint {
        kind: WaypointKind::Target,
        pos: target.0,
        function: target.1,
    });
    Ok(out)
}

/// The nondet call results along a run, in order: the result variable and its value.
fn returns(kinds: &Kinds<'_>, steps: &[interp::Step]) -> Vec<(PVar, u128)> {
    steps
        .iter()
        .flat_map(|s| s.nondet.iter().copied())
        .filter(|(v, _)| {
            matches!(
                kinds.get(v),
                Some(HavocKind::NondetCall { .. } | HavocKind::UndefinedCall { .. })
            )
        })
        .collect()
}

/// One `function_return` waypoint per call result along a run of `cfa`.
fn waypoints_of(cfa: &Cfa, kinds: &Kinds<'_>, steps: &[interp::Step]) -> Vec<Waypoint> {
    let mut out = Vec::new();
    for step in steps {
        let function = function_of(cfa, cfa.edge(step.edge));
        for &(v, value) in &step.nondet {
            let (name, ty) = match kinds.get(&v) {
                Some(HavocKind::NondetCall { function, ty })
                | Some(HavocKind::UndefinedCall { function, ty }) => (function, ty),
                _ => continue,
            };
            let Some(pos) = cfa.var(v).pos.clone() else {
                continue;
            };
            let value = if ty.signed {
                to_signed(value, ty.width).to_string()
            } else {
                value.to_string()
            };
            out.push(Waypoint {
                kind: WaypointKind::Return {
                    function: name.clone(),
                    value,
                },
                pos,
                function: function.clone(),
            });
        }
    }
    out
}

/// The position and function of the program's only edge into the error location.
fn only_error_statement(cfa: &Cfa) -> Result<(SrcPos, Option<String>), ViolationError> {
    let mut into = cfa.edges.iter().filter(|e| e.to == cfa.error);
    match (into.next(), into.next()) {
        (Some(e), None) => Ok((
            last_origin(cfa, &e.cmd).ok_or(ViolationError::NoTarget)?,
            function_of(cfa, e),
        )),
        _ => Err(ViolationError::TargetUnknown),
    }
}

/// Whether a step jumps over loop iterations (an accelerated jump taken more than zero times)
/// on an edge that also calls a nondet function: the values of the iterations jumped over are
/// not in the run.
fn jumps_over_calls(cfa: &Cfa, kinds: &Kinds<'_>, steps: &[interp::Step]) -> bool {
    steps.iter().any(|s| {
        let jumps = s
            .nondet
            .iter()
            .any(|(v, n)| *n > 0 && matches!(kinds.get(v), Some(HavocKind::Iterations)));
        let mut calls = false;
        cfa.edge(s.edge).cmd.for_each_atom(&mut |a| {
            calls |= matches!(
                a,
                Gcl::Havoc(
                    _,
                    HavocKind::NondetCall { .. } | HavocKind::UndefinedCall { .. },
                    _
                )
            );
        });
        jumps && calls
    })
}

/// The failing statement as the last edge of a run says it, when that edge has no choice
/// (so its last atom is the last one executed).
fn last_statement(cfa: &Cfa, steps: &[interp::Step]) -> Option<(SrcPos, Option<String>)> {
    let edge = cfa.edge(steps.last()?.edge);
    let mut choice = false;
    fn has_choice(g: &Gcl, found: &mut bool) {
        match g {
            Gcl::Choice(_) => *found = true,
            Gcl::Seq(v) => v.iter().for_each(|x| has_choice(x, found)),
            _ => {}
        }
    }
    has_choice(&edge.cmd, &mut choice);
    if choice {
        return None;
    }
    Some((last_origin(cfa, &edge.cmd)?, function_of(cfa, edge)))
}

/// The function an edge is in: its source's, or its target's for an edge leaving the initial
/// location, which belongs to no function.
fn function_of(cfa: &Cfa, edge: &crate::cfa::Edge) -> Option<String> {
    let at = |l: crate::cfa::Loc| cfa.locations[l.index()].function.as_deref();
    at(edge.from).or(at(edge.to)).map(str::to_string)
}

/// What each havocked variable's value comes from.
type Kinds<'a> = HashMap<PVar, &'a HavocKind>;

fn havoc_kinds(cfa: &Cfa) -> Kinds<'_> {
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

/// The source position of the last atom of a command that has one.
fn last_origin(cfa: &Cfa, cmd: &Gcl) -> Option<SrcPos> {
    let mut pos = None;
    cmd.for_each_atom(&mut |a| {
        let o = match a {
            Gcl::Assume(_, o) | Gcl::Assign(_, _, o) | Gcl::Havoc(_, _, o) => *o,
            _ => return,
        };
        if let Some(p) = cfa.origin(o).and_then(|o| o.pos.clone()) {
            pos = Some(p);
        }
    });
    pos
}
