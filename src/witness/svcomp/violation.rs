//! The waypoints of a violation witness: the values a counterexample's nondet calls return, at
//! their calls, the values of uninitialised variables it reads, and the failing statement.
//!
//! The counterexample is replayed on the CFA the front end built (one edge per statement), with
//! the calls returning the values they returned on the verified (or accelerated) CFA and
//! uninitialised declarations taking 0 ([`crate::witness::source_run`], the replay the printed
//! trace is read from too). That replay gives the failing statement. A compiled
//! program does not give its uninitialised locals 0: they hold whatever the stack held (with
//! gcc, a position-independent build of `s3_clnt_1` has a pointer's bits where a build at fixed
//! addresses has 0), so a run that reads one depends on a value the calls' values do not fix.
//! Each such read is stated: an `assumption` waypoint `x == 0` at the start of the statement
//! that first reads the value (for a condition, its `if`, loop or `switch`), placed before the
//! values of the calls that statement makes, when `x` names the variable there and the read
//! happens in the pass through the statement that began at that start (not in a loop
//! condition evaluated again after the body, a `do` loop's condition or a `for` loop's step);
//! otherwise the witness's note says which values it leaves unstated.
//!
//! A counterexample too long to replay step by step (a loop of millions of iterations that
//! acceleration jumped over) keeps the calls of the run that found it — each nondet result is
//! a variable of its own, positioned at its call — and takes the target from the program's
//! only statement that reaches the error, when there is only one.

use super::{Waypoint, WaypointKind};
use crate::cfa::{interp, Cfa, Gcl, HavocKind, IntType, PVar, SrcPos};
use crate::witness::source_run::{
    self, havoc_kinds, uninitialised_reads, Kinds, Uninit, UninitRead,
};
use crate::witness::trace::{decimal, function_of};

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
/// `original`, the CFA the front end built, from which `ran_on` derives (same variables). With
/// them, a note on what the waypoints leave unstated (uninitialised values read where no C
/// expression names them).
pub fn waypoints(
    original: &Cfa,
    ran_on: &Cfa,
    steps: &[interp::Step],
) -> Result<(Vec<Waypoint>, Option<String>), ViolationError> {
    let ran_kinds = havoc_kinds(ran_on);
    let (outcome, replay) = source_run::replay(original, ran_on, steps, Uninit::Zero, REPLAY_STEPS);
    let mut note = None;
    let (mut out, target) = match outcome {
        interp::Outcome::Error { .. } => {
            let last = replay.last().ok_or(ViolationError::NoTarget)?;
            let edge = original.edge(last.edge);
            let pos = last_origin(original, &edge.cmd).ok_or(ViolationError::NoTarget)?;
            let kinds = havoc_kinds(original);
            let mut points = waypoints_of(original, &kinds, &replay);
            let unstated = state_uninitialised_reads(original, &kinds, &replay, &mut points);
            if !unstated.is_empty() {
                note = Some(format!(
                    "the run reads uninitialised variables whose values the witness cannot state where they are read (not nameable there, or read after the start of their statement was passed with other values): {}",
                    unstated.join(", ")
                ));
            }
            (
                points.into_iter().map(|(w, _)| w).collect::<Vec<_>>(),
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
            let points = waypoints_of(ran_on, &ran_kinds, steps);
            (points.into_iter().map(|(w, _)| w).collect(), target)
        }
        other => return Err(ViolationError::NoError(format!("{other:?}"))),
    };
    out.push(Waypoint {
        kind: WaypointKind::Target,
        pos: target.0,
        function: target.1,
    });
    Ok((out, note))
}

/// One `function_return` waypoint per call result along a run of `cfa`, each with the start of
/// the statement that makes the call.
fn waypoints_of(
    cfa: &Cfa,
    kinds: &Kinds<'_>,
    steps: &[interp::Step],
) -> Vec<(Waypoint, Option<SrcPos>)> {
    let mut out = Vec::new();
    for step in steps {
        let edge = cfa.edge(step.edge);
        let function = function_of(cfa, edge);
        for &(v, value) in &step.nondet {
            let Some((name, ty, pos)) = call_result(cfa, kinds, v) else {
                continue;
            };
            out.push((
                Waypoint {
                    kind: WaypointKind::Return {
                        function: name.clone(),
                        value: decimal(value, *ty),
                    },
                    pos,
                    function: function.clone(),
                },
                havoc_statement(cfa, &edge.cmd, v),
            ));
        }
    }
    out
}

/// The called function, the result's type and the call's position of `v` when it is the
/// result of a call at a known position (one that gives a `function_return` waypoint).
fn call_result<'k>(
    cfa: &Cfa,
    kinds: &Kinds<'k>,
    v: PVar,
) -> Option<(&'k String, &'k IntType, SrcPos)> {
    let (function, ty) = match kinds.get(&v) {
        Some(HavocKind::NondetCall { function, ty })
        | Some(HavocKind::UndefinedCall { function, ty }) => (function, ty),
        _ => return None,
    };
    Some((function, ty, cfa.var(v).pos.clone()?))
}

/// The statement start of the command that havocs `v` in `cmd`.
fn havoc_statement(cfa: &Cfa, cmd: &Gcl, v: PVar) -> Option<SrcPos> {
    let mut out = None;
    cmd.for_each_atom(&mut |a| {
        if let Gcl::Havoc(w, _, o) = a {
            if *w == v && out.is_none() {
                out = cfa.origin(*o).and_then(|o| o.statement.clone());
            }
        }
    });
    out
}

/// Adds to `points` (the run's `function_return` waypoints, each with its statement's start)
/// an `assumption` waypoint for each uninitialised value the run reads: the variable equals
/// its value at the start of the reading statement, placed before the values of the calls that
/// statement makes. Returns the reads no waypoint states (the variable cannot be named there).
fn state_uninitialised_reads(
    cfa: &Cfa,
    kinds: &Kinds<'_>,
    steps: &[interp::Step],
    points: &mut Vec<(Waypoint, Option<SrcPos>)>,
) -> Vec<String> {
    let reads = uninitialised_reads(cfa, kinds, steps);
    if reads.is_empty() {
        return Vec::new();
    }
    let first_point = first_points(cfa, kinds, steps);
    let mut unstated = Vec::new();
    let mut inserted = 0usize;
    for r in reads {
        let info = cfa.var(r.var);
        let function = function_of(cfa, cfa.edge(steps[r.step].edge));
        let Some((at, name)) = stated_at(cfa, steps, &r, function.as_deref()) else {
            unstated.push(format!(
                "{} (value {})",
                info.name,
                decimal(r.value, info.ty)
            ));
            continue;
        };
        // GraphML places an assumption after its statement: only where the statement leaves
        // the variable as it was.
        let writes = statement_writes(cfa, steps, r.step, &at, r.var);
        // Before the values of the calls of the same statement made before the read.
        let mut at_k = first_point[r.step + 1] + inserted;
        while at_k > 0
            && points[at_k - 1].1.as_ref() == Some(&at)
            && matches!(points[at_k - 1].0.kind, WaypointKind::Return { .. })
        {
            at_k -= 1;
        }
        points.insert(
            at_k,
            (
                Waypoint {
                    kind: WaypointKind::Assumption {
                        constraint: format!("{name} == {}", decimal(r.value, info.ty)),
                        holds_after: !writes,
                    },
                    pos: at.clone(),
                    function,
                },
                Some(at),
            ),
        );
        inserted += 1;
    }
    unstated
}

/// Where each step's first call value is in the run's `function_return` waypoints, and their
/// number after the last step.
fn first_points(cfa: &Cfa, kinds: &Kinds<'_>, steps: &[interp::Step]) -> Vec<usize> {
    let mut first_point = Vec::with_capacity(steps.len() + 1);
    let mut k = 0;
    for step in steps {
        first_point.push(k);
        k += step
            .nondet
            .iter()
            .filter(|(v, _)| call_result(cfa, kinds, *v).is_some())
            .count();
    }
    first_point.push(k);
    first_point
}

/// Where and by what C name an assumption states the value of the uninitialised read `r` in
/// `function`: at the start of the reading statement, when the variable can be named there
/// and the read happens in the first pass through the statement.
fn stated_at<'c>(
    cfa: &'c Cfa,
    steps: &[interp::Step],
    r: &UninitRead,
    function: Option<&str>,
) -> Option<(SrcPos, &'c str)> {
    let statement = cfa.origin(r.origin).and_then(|o| o.statement.clone());
    let name = match (&statement, function) {
        (Some(at), Some(f)) if super::correctness::nameable(cfa, f, at)[r.var.index()] => {
            super::correctness::c_base(cfa.var(r.var))
        }
        _ => None,
    };
    match (statement, name) {
        (Some(at), Some(name)) if first_pass(cfa, steps, r.step, &at) => Some((at, name)),
        _ => None,
    }
}

/// The statement start of the command of an edge (of its first atom with an origin).
fn statement_of(cfa: &Cfa, cmd: &Gcl) -> Option<SrcPos> {
    let mut out = None;
    cmd.for_each_atom(&mut |a| {
        if let Gcl::Assume(_, o) | Gcl::Assign(_, _, o) | Gcl::Havoc(_, _, o) = a {
            if out.is_none() {
                out = cfa.origin(*o).and_then(|o| o.statement.clone());
            }
        }
    });
    out
}

/// The steps of a run around step `at_step` that execute the statement starting at `at`:
/// walking from `at_step` in `steps` (backwards or forwards), the commands of that statement,
/// and those of other functions (called from it) or of no statement, until the first step of
/// another statement of the same function, which is returned.
fn next_statement<'a>(
    cfa: &Cfa,
    mut walk: impl Iterator<Item = &'a interp::Step>,
    at: &SrcPos,
    function: Option<&str>,
    mut visit: impl FnMut(&Gcl),
) -> Option<SrcPos> {
    walk.find_map(|s| {
        let e = cfa.edge(s.edge);
        if function_of(cfa, e).as_deref() != function {
            return None;
        }
        match statement_of(cfa, &e.cmd) {
            None => None,
            Some(p) if &p == at => {
                visit(&e.cmd);
                None
            }
            Some(p) => Some(p),
        }
    })
}

/// Whether the read at step `read` happens in the first pass through the statement starting at
/// `at` since the run came to it from code before it (not in a later evaluation of a loop's
/// condition, or in a `do` loop's condition, or in a `for` loop's step, which come after the
/// loop's body): there the statement's start is passed with the values used so far, and an
/// assumption placed there is checked with them.
fn first_pass(cfa: &Cfa, steps: &[interp::Step], read: usize, at: &SrcPos) -> bool {
    let function = function_of(cfa, cfa.edge(steps[read].edge));
    match next_statement(
        cfa,
        steps[..read].iter().rev(),
        at,
        function.as_deref(),
        |_| {},
    ) {
        Some(p) => p.file == at.file && (p.line, p.col) < (at.line, at.col),
        None => true,
    }
}

/// Whether the statement starting at `at` writes `v` in its pass that makes the read at step
/// `read`.
fn statement_writes(cfa: &Cfa, steps: &[interp::Step], read: usize, at: &SrcPos, v: PVar) -> bool {
    let function = function_of(cfa, cfa.edge(steps[read].edge));
    let mut writes = false;
    next_statement(cfa, steps[read..].iter(), at, function.as_deref(), |cmd| {
        cmd.for_each_atom(&mut |a| {
            if let Gcl::Assign(w, ..) | Gcl::Havoc(w, ..) = a {
                writes |= *w == v;
            }
        })
    });
    writes
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
