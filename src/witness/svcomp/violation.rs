//! The waypoints of a violation witness: a counterexample's nondet values replayed on the CFA
//! the front end built (one edge per statement, so every value and the failing statement have
//! their own source position).

use super::{Waypoint, WaypointKind};
use crate::bv::value::to_signed;
use crate::cfa::{interp, Cfa, Gcl, HavocKind, PVar};
use std::collections::HashMap;

/// Why a counterexample gives no violation witness.
#[derive(Debug, thiserror::Error)]
pub enum ViolationError {
    #[error("the nondet values do not reach the error on the program as written (the run ends with {0})")]
    NoError(String),
    #[error("the failing statement has no source position")]
    NoTarget,
}

/// The values the nondet calls return along `steps`, a run of `ran_on`, in order (what a
/// compiled program's calls return; uninitialised declarations are left out).
pub fn call_values(ran_on: &Cfa, steps: &[interp::Step]) -> Vec<u128> {
    let kinds = havoc_kinds(ran_on);
    steps
        .iter()
        .flat_map(|s| s.nondet.iter())
        .filter(|(v, _)| {
            matches!(
                kinds.get(v),
                Some(HavocKind::NondetCall { .. } | HavocKind::UndefinedCall { .. })
            )
        })
        .map(|&(_, x)| x)
        .collect()
}

/// The waypoints of the run of `cfa` (as lowered, before any pass) where the nondet calls
/// return `calls` and uninitialised declarations take 0: one `function_return` per value a
/// call returns, in order, then the target. The run must reach the error location.
pub fn waypoints(cfa: &Cfa, calls: &[u128]) -> Result<Vec<Waypoint>, ViolationError> {
    let opts = interp::RunOptions {
        step_limit: calls.len().saturating_mul(64).saturating_add(1 << 22),
        uninit_zero: true,
        ..interp::RunOptions::default()
    };
    let (outcome, steps) = interp::run_with(cfa, calls, opts);
    if !matches!(outcome, interp::Outcome::Error { .. }) {
        return Err(ViolationError::NoError(format!("{outcome:?}")));
    }
    let kinds = havoc_kinds(cfa);
    let mut out = Vec::new();
    for step in &steps {
        let edge = cfa.edge(step.edge);
        let function = function_of(cfa, edge);
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
    let last = steps.last().ok_or(ViolationError::NoTarget)?;
    let edge = cfa.edge(last.edge);
    let pos = last_origin(cfa, &edge.cmd).ok_or(ViolationError::NoTarget)?;
    out.push(Waypoint {
        kind: WaypointKind::Target,
        pos,
        function: function_of(cfa, edge),
    });
    Ok(out)
}

/// The function an edge is in: its source's, or its target's for an edge leaving the initial
/// location, which belongs to no function.
fn function_of(cfa: &Cfa, edge: &crate::cfa::Edge) -> Option<String> {
    let at = |l: crate::cfa::Loc| cfa.locations[l.index()].function.as_deref();
    at(edge.from).or(at(edge.to)).map(str::to_string)
}

/// What each havocked variable's value comes from.
fn havoc_kinds(cfa: &Cfa) -> HashMap<PVar, &HavocKind> {
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
fn last_origin(cfa: &Cfa, cmd: &Gcl) -> Option<crate::cfa::SrcPos> {
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
