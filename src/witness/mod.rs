//! Trust: nothing is reported as SAFE or UNSAFE before it has been checked independently of
//! the engine that found it.
//!
//! - UNSAFE on a bit-level system: the plan is re-simulated clause by clause on the system
//!   ([`System::check_plan`]); callers with a richer source (an AIGER circuit, a C program)
//!   check it there as well.
//! - SAFE: the certificate is re-checked from scratch by fresh solvers of a backend different
//!   from the one that produced it: inductive invariants here, k-induction and diameter
//!   certificates by [`kcheck`], which shares no code with the engines that produce them.
//!
//! A failed check turns the verdict into UNKNOWN with an internal-error note.

pub mod harness;
pub mod invariant;
pub mod kcheck;
pub mod source_run;
pub mod svcomp;
pub mod trace;

use crate::cnf::Cnf;
use crate::engine::unroll::{conjunction_literal, Unrolling};
use crate::engine::{Cause, Certificate, CircuitInvariant, Interrupted, Options, Unknown, Verdict};
use crate::sat::{Backend, Lit, SolveResult, Solver};
use crate::ts::System;

/// The outcome of checking a verdict.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The verdict to report: the engine's, or UNKNOWN when its evidence did not hold.
    pub verdict: Verdict,
    /// What was checked, for `-v` output (e.g. "plan re-simulated on the system").
    pub note: String,
}

/// Check an engine's verdict on `sys`. `produced_by` is the backend the engine used; the SAFE
/// check uses another one.
pub fn check_bit_level(
    sys: &System,
    verdict: Verdict,
    produced_by: Backend,
    opts: &Options,
) -> Checked {
    match verdict {
        Verdict::Unsafe(plan) => match sys.check_plan(&plan) {
            Ok(()) => Checked {
                note: format!(
                    "plan of {} states re-simulated on the system",
                    plan.states.len()
                ),
                verdict: Verdict::Unsafe(plan),
            },
            Err(e) => internal(format!("the plan found does not re-simulate: {e}")),
        },
        Verdict::Safe(cert) => {
            let checker = produced_by.independent_of();
            let copts = Options {
                backend: checker,
                max_depth: None,
                interrupter: opts.interrupter.clone(),
            };
            let started = std::time::Instant::now();
            let holds = match &cert {
                Certificate::KInduction { .. } | Certificate::Diameter { .. } => {
                    kcheck::check(sys, &cert, checker, &opts.interrupter)
                }
                Certificate::Trivial => check_trivial(sys, checker, &copts),
                Certificate::Invariant(inv) => {
                    check_invariant(sys, inv, checker, &copts).map(|r| r.is_ok())
                }
                Certificate::Circuit(inv) => {
                    check_circuit_invariant(sys, inv, checker, &copts).map(|r| r.is_ok())
                }
            };
            match holds {
                Ok(true) => Checked {
                    note: format!(
                        "certificate ({}) re-checked by {checker} in {:.3} s",
                        describe(&cert),
                        started.elapsed().as_secs_f64()
                    ),
                    verdict: Verdict::Safe(cert),
                },
                Ok(false) => internal(format!(
                    "the certificate ({}) was rejected by {checker}",
                    describe(&cert)
                )),
                Err(Interrupted) => Checked {
                    verdict: Verdict::Unknown(Unknown::new(
                        Cause::Interrupted,
                        "interrupted while checking the certificate",
                    )),
                    note: String::new(),
                },
            }
        }
        v @ Verdict::Unknown(_) => Checked {
            verdict: v,
            note: String::new(),
        },
    }
}

fn internal(msg: String) -> Checked {
    Checked {
        verdict: Verdict::Unknown(Unknown::internal(msg.clone())),
        note: msg,
    }
}

fn describe(cert: &Certificate) -> String {
    match cert {
        Certificate::Trivial => "no goal state satisfies the constraints".into(),
        Certificate::KInduction { k } => format!("{k}-induction"),
        Certificate::Diameter { k } => {
            format!("every path from an initial state repeats a state within {k} steps")
        }
        Certificate::Invariant(inv) => format!("inductive invariant of {} clauses", inv.len()),
        Certificate::Circuit(inv) => format!(
            "inductive invariant of {} locations, {} AND gates",
            inv.text.len(),
            inv.aig.cone(&[inv.root]).len()
        ),
    }
}

/// Which condition an invariant fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvariantFailure {
    /// Some initial state violates it.
    Initiation,
    /// Some transition leaves it.
    Consecution,
    /// It admits a goal state.
    Safety,
}

/// Check `Init ⇒ Inv`, `Inv ∧ T ⇒ Inv'` and `Inv ⇒ ¬Bad` (all under the constraints `U`) with
/// fresh solvers of `backend`. `Err(Interrupted)` when interrupted.
pub fn check_invariant(
    sys: &System,
    inv: &Cnf,
    backend: Backend,
    opts: &Options,
) -> Result<Result<(), InvariantFailure>, Interrupted> {
    check_conditions(sys, backend, opts, Some(inv), &|s, un, k| {
        let f = un.frame(k);
        conjunction_literal(s, inv, |v| f[v.index()])
    })
}

/// [`check_invariant`] for an invariant given as a circuit: its inputs are bound to the
/// variables of the state they stand for, so the same circuit is encoded afresh in each state.
/// An input of the root's cone that stands for no variable of the system fails the check.
pub fn check_circuit_invariant(
    sys: &System,
    inv: &CircuitInvariant,
    backend: Backend,
    opts: &Options,
) -> Result<Result<(), InvariantFailure>, Interrupted> {
    let n = sys.num_vars;
    let bound: std::collections::HashMap<u32, crate::sat::Var> =
        inv.inputs.iter().copied().collect();
    let cone_ok = inv.aig.cone(&[inv.root]).iter().all(|&v| {
        !matches!(inv.aig.node(v), crate::aig::AigNode::Input)
            || bound.get(&v).is_some_and(|x| x.0 < n)
    });
    if !cone_ok {
        return Ok(Err(InvariantFailure::Safety));
    }
    check_conditions(sys, backend, opts, None, &|s, un, k| {
        let f = un.frame(k);
        let mut enc = crate::cnf::Tseitin::new();
        for (&a, &v) in &bound {
            enc.bind(a, f[v.index()]);
        }
        enc.encode(&inv.aig, s, inv.root)
    })
}

/// The literal that says an invariant holds in state `k` of an unrolling (encoding it there).
type InvariantAt<'a> = dyn Fn(&mut dyn Solver, &Unrolling<'_>, usize) -> Lit + 'a;

/// The three conditions of an inductive invariant, each checked by a fresh solver; when the
/// invariant is a CNF (`clauses`), consecution is checked clause by clause.
fn check_conditions(
    sys: &System,
    backend: Backend,
    opts: &Options,
    clauses: Option<&Cnf>,
    at: &InvariantAt<'_>,
) -> Result<Result<(), InvariantFailure>, Interrupted> {
    let unsat = |setup: &dyn Fn(&mut dyn Solver, &mut Unrolling<'_>) -> Vec<Lit>| {
        let mut s = backend.create(&opts.interrupter);
        let mut un = Unrolling::new(sys);
        let assumptions = setup(s.as_mut(), &mut un);
        match s.solve(&assumptions) {
            SolveResult::Unsat => Ok(true),
            SolveResult::Sat => Ok(false),
            SolveResult::Interrupted => Err(Interrupted),
        }
    };
    // Initiation: I ∧ U ∧ ¬Inv is UNSAT.
    if !unsat(&|s, un| {
        un.push_state(s);
        un.add_section(s, &sys.init, 0);
        vec![!at(s, un, 0)]
    })? {
        return Ok(Err(InvariantFailure::Initiation));
    }
    // Consecution: Inv ∧ U ∧ T ∧ U' ∧ ¬Inv' is UNSAT.
    let consecutive = match clauses {
        Some(inv) => consecution_by_clause(sys, inv, backend, opts)?,
        None => unsat(&|s, un| {
            un.push_state(s);
            let now = at(s, un, 0);
            un.push_state(s);
            vec![now, !at(s, un, 1)]
        })?,
    };
    if !consecutive {
        return Ok(Err(InvariantFailure::Consecution));
    }
    // Safety: Inv ∧ U ∧ G is UNSAT.
    if !unsat(&|s, un| {
        un.push_state(s);
        un.add_section(s, &sys.bad, 0);
        vec![at(s, un, 0)]
    })? {
        return Ok(Err(InvariantFailure::Safety));
    }
    Ok(Ok(()))
}

/// Consecution of a CNF invariant as one query per clause `c` in one solver:
/// `Inv ∧ U ∧ T ∧ U' ∧ ¬c'` is UNSAT for every `c` (the same condition as one query with
/// `¬Inv'`, in many small queries, which solvers answer far faster on invariants of thousands
/// of clauses).
fn consecution_by_clause(
    sys: &System,
    inv: &Cnf,
    backend: Backend,
    opts: &Options,
) -> Result<bool, Interrupted> {
    let mut s = backend.create(&opts.interrupter);
    let mut un = Unrolling::new(sys);
    un.push_state(s.as_mut());
    un.push_state(s.as_mut());
    un.add_section(s.as_mut(), inv, 0);
    let next = un.frame(1);
    for c in inv.iter() {
        let assumptions: Vec<Lit> = c
            .iter()
            .map(|l| !next[l.var().index()].xor_sign(l.is_negated()))
            .collect();
        match s.solve(&assumptions) {
            SolveResult::Unsat => {}
            SolveResult::Sat => return Ok(false),
            SolveResult::Interrupted => return Err(Interrupted),
        }
    }
    Ok(true)
}

/// No state satisfies both `U` and `G`.
fn check_trivial(sys: &System, backend: Backend, opts: &Options) -> Result<bool, Interrupted> {
    let mut s = backend.create(&opts.interrupter);
    let mut un = Unrolling::new(sys);
    un.push_state(s.as_mut());
    un.add_section(s.as_mut(), &sys.bad, 0);
    match s.solve(&[]) {
        SolveResult::Unsat => Ok(true),
        SolveResult::Sat => Ok(false),
        SolveResult::Interrupted => Err(Interrupted),
    }
}

/// Whether the `bool` term `t` of `tm` is valid, decided by a fresh solver of `backend`:
/// its negation bit-blasted and found unsatisfiable. `false` when it is not valid or when the
/// solver was interrupted.
pub fn term_valid(
    tm: &crate::bv::TermManager,
    t: crate::bv::TermId,
    backend: Backend,
    interrupter: &crate::sat::Interrupter,
) -> bool {
    let mut aig = crate::aig::Aig::new();
    let mut bl = crate::aig::blast::Blaster::new();
    let root = bl.blast_bool(tm, &mut aig, t);
    let mut solver = backend.create(interrupter);
    let mut enc = crate::cnf::Tseitin::new();
    let lit = enc.encode(&aig, &mut *solver, root);
    solver.add_clause(&[!lit]);
    solver.solve(&[]) == SolveResult::Unsat
}
