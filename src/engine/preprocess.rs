//! Preprocessing of a circuit's system before PDR and BMC run on it, and the way back: their
//! verdicts about the preprocessed system become verdicts about the original one, which the
//! caller then checks there as it checks any other verdict.
//!
//! Two steps, as [`Preprocess`] says: latch correspondence ([`crate::ts::lcorr`], latches
//! equal, complementary or constant in every reachable state, proved by induction, read as
//! their representative), then SAT sweeping ([`crate::ts::sweep`], gates equal as functions of
//! the latches and inputs merged). The swept model's system then has gates eliminated by
//! resolution ([`crate::ts::eliminate`]), which keeps every latch and input variable and what
//! they can do, so nothing below changes for it. The preprocessed model has the original's latches and
//! inputs (same indices; a merged latch drops out of its cone), and its functions equal the
//! original's wherever the proved equivalences `E` hold, which is in every reachable state, so
//!
//! - a **plan** carries back by stepping the original system from the plan's first state with
//!   the plan's inputs (latches and inputs outside the preprocessed system's cone take their
//!   reset value, or `false`; a merged latch has a reset value that agrees with `E`, and the
//!   others cannot change whether the goal is reached; the checker re-simulates the result
//!   anyway);
//! - an **inductive invariant** over latches carries back by renaming each preprocessed latch
//!   variable to the original latch variable of the same index and adding `E` as clauses:
//!   the conditions it satisfies (initiation, consecution, safety) only speak of latch and
//!   input valuations, on which the two systems agree under `E`, and `E` is inductive itself;
//! - a **trivial** certificate (no goal state satisfies the constraints) carries back as it is,
//!   or as the invariant `E` when latches were merged.
//!
//! Certificates of other forms (k-induction, diameter, circuits) are not carried back: the
//! engines that produce them do not run on the preprocessed system, and if one did, its verdict
//! would become UNKNOWN (internal error), never a verdict that was not checked.

use super::{Certificate, Stats, Unknown, Verdict};
use crate::cnf::Cnf;
use crate::sat::{Backend, Interrupter, Var};
use crate::ts::eliminate::{self, EliminateStats};
use crate::ts::lcorr::{self, CorrStats, Repr};
use crate::ts::model::Original;
use crate::ts::step::Stepper;
use crate::ts::sweep::{self, SweepStats};
use crate::ts::{Plan, System};
use std::time::Duration;

/// How the system is preprocessed before PDR and BMC run on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Preprocess {
    /// The engines run on the system as it was built.
    None,
    /// SAT sweeping of the combinational logic, for at most the given time.
    Sweep,
    /// Latch correspondence ([`crate::ts::lcorr`]), then SAT sweeping.
    #[default]
    Correspond,
}

/// The time preprocessing may take at most: latch correspondence, then SAT sweeping for the
/// rest of it (at least half).
pub const SWEEP_BUDGET: Duration = Duration::from_secs(2);
/// The time latch correspondence may take at most.
pub const CORRESPOND_BUDGET: Duration = Duration::from_secs(1);

/// The preprocessed system and what is needed to carry its verdicts back.
pub struct Preprocessed {
    pub sys: System,
    /// The original system's variable of each variable of `sys` that is a latch.
    to_original: Vec<Option<Var>>,
    /// The preprocessed system's variable of each latch and input of the model.
    latch_var: Vec<Option<Var>>,
    input_var: Vec<Option<Var>>,
    /// The original system's variable, and reset value, of each latch; the same of each input.
    orig_latches: Vec<(Option<Var>, Option<bool>)>,
    orig_inputs: Vec<Option<Var>>,
    /// The equivalences latch correspondence proved, as clauses over the original system's
    /// latch variables (an invariant of it).
    equivalences: Vec<Vec<crate::sat::Lit>>,
    pub sweep: SweepStats,
    pub correspond: Option<CorrStats>,
    /// What gate elimination did ([`crate::ts::eliminate`]).
    pub eliminated: Option<EliminateStats>,
}

impl Preprocessed {
    /// Preprocess `orig` with `backend` as the sweeping solver, stopping early when
    /// `interrupter` is raised (what was proved until then is used). `None` when the process
    /// has too little memory left for a second copy of the system and a solver holding its
    /// logic, or when sweeping merged nothing (the engines then run on the original itself).
    pub fn new(
        orig: Original<'_>,
        mode: Preprocess,
        backend: Backend,
        interrupter: &Interrupter,
    ) -> Option<Preprocessed> {
        if mode == Preprocess::None || super::unroll::too_large(orig.sys, 0, 3) {
            return None;
        }
        let (corr, corr_stats) = match mode {
            Preprocess::Correspond => {
                let eligible = |j: usize| orig.latch_var[j].is_some();
                let (c, s) = lcorr::correspond(
                    orig.model,
                    &orig.words,
                    &eligible,
                    backend,
                    CORRESPOND_BUDGET,
                    interrupter,
                );
                (c, Some(s))
            }
            _ => (None, None),
        };
        let base = corr.as_ref().map_or(orig.model, |c| &c.model);
        let spent = corr_stats.as_ref().map_or(Duration::ZERO, |c| c.time);
        let budget = SWEEP_BUDGET.saturating_sub(spent).max(SWEEP_BUDGET / 2);
        let (model, sweep) = sweep::sweep(base, &orig.words, backend, budget, interrupter);
        if (sweep.merged == 0 && corr.is_none()) || interrupter.is_interrupted() {
            return None;
        }
        let equivalences = corr.map_or_else(Vec::new, |c| equivalences(&c.repr, orig.latch_var));
        let ms = model.to_system();
        let (sys, eliminated) = match eliminate::eliminate(&ms.sys) {
            Some((sys, stats)) => (sys, Some(stats)),
            None => (ms.sys, None),
        };
        let mut to_original = vec![None; sys.n()];
        for (j, v) in ms.latch_var.iter().enumerate() {
            if let (Some(v), Some(o)) = (v, orig.latch_var[j]) {
                to_original[v.index()] = Some(o);
            }
        }
        Some(Preprocessed {
            sys,
            to_original,
            latch_var: ms.latch_var,
            input_var: ms.input_var,
            orig_latches: orig
                .latch_var
                .iter()
                .zip(&orig.model.latches)
                .map(|(&v, l)| (v, l.reset))
                .collect(),
            orig_inputs: orig.input_var.to_vec(),
            equivalences,
            sweep,
            correspond: corr_stats,
            eliminated,
        })
    }

    /// The preprocessed system's variable of each latch of the model.
    pub fn latch_var(&self) -> &[Option<Var>] {
        &self.latch_var
    }

    /// What preprocessing did, for `-v`.
    pub fn stats(&self, orig: &System) -> Stats {
        let s = &self.sweep;
        let count = |v: &[Option<Var>]| v.iter().flatten().count();
        let mut out = Stats::new();
        if let Some(c) = &self.correspond {
            out.time("latch correspondence time", c.time)
                .flag("latch correspondence stopped early", c.stopped)
                .counter("latch correspondence SAT calls", c.sat_calls)
                .counter("latches merged into another", c.merged)
                .counter("latches found constant", c.constants);
        }
        out.time("preprocessing time", s.time)
            .flag("preprocessing stopped early", s.stopped)
            .change("preprocessing AND gates", s.ands_before, s.ands_after)
            .change(
                "preprocessing latches",
                self.orig_latches.iter().filter(|l| l.0.is_some()).count(),
                count(&self.latch_var),
            )
            .change(
                "preprocessing inputs",
                count(&self.orig_inputs),
                count(&self.input_var),
            )
            .change(
                "preprocessing system variables",
                orig.num_vars,
                self.sys.num_vars,
            )
            .counter("preprocessing SAT calls", s.sat_calls)
            .counter("preprocessing merges", s.merged)
            .counter("preprocessing SAT calls refuting a merge", s.refuted);
        if let Some(e) = self.eliminated {
            out.counter("gates eliminated", e.gates).change(
                "clauses of U and T (definitions)",
                e.clauses_before,
                e.clauses_after,
            );
        }
        out
    }

    /// The verdict about the preprocessed system as a verdict about `orig` (not yet checked);
    /// UNKNOWN (internal error) when it cannot be carried back.
    pub fn carry_back(&self, orig: &System, v: Verdict) -> Verdict {
        let carried = match v {
            Verdict::Unsafe(plan) => self.plan(orig, &plan).map(Verdict::Unsafe),
            // No goal state of the preprocessed system: none of the original satisfies `E`.
            Verdict::Safe(Certificate::Trivial) if !self.equivalences.is_empty() => self
                .invariant(&Cnf::new(), orig.num_vars)
                .map(|c| Verdict::Safe(Certificate::Invariant(c))),
            Verdict::Safe(Certificate::Trivial) => Ok(Verdict::Safe(Certificate::Trivial)),
            // A path at rest in the preprocessed system may still move in the original (on
            // latches the preprocessed system left out), so its diameter is not the
            // original's: no verdict, and no internal error either.
            Verdict::Safe(Certificate::Diameter { k }) => Ok(Verdict::Unknown(Unknown::incomplete(
                format!("every path of the preprocessed system comes to rest within {k} steps, which says nothing about the original system"),
            ))),
            Verdict::Safe(Certificate::Invariant(inv)) => self
                .invariant(&inv, orig.num_vars)
                .map(|c| Verdict::Safe(Certificate::Invariant(c))),
            Verdict::Safe(_) => Err("this kind of certificate cannot be carried back".into()),
            u @ Verdict::Unknown(_) => Ok(u),
        };
        carried.unwrap_or_else(|e| {
            Verdict::Unknown(Unknown::internal(format!(
                "the verdict on the preprocessed system: {e}"
            )))
        })
    }

    fn plan(&self, orig: &System, plan: &Plan) -> Result<Plan, String> {
        let st = Stepper::new(orig);
        let mut states: Vec<Vec<bool>> = Vec::with_capacity(plan.states.len());
        for (i, rs) in plan.states.iter().enumerate() {
            let mut given: Vec<(Var, bool)> = match states.last() {
                Some(prev) => st.next(prev).map_err(|e| format!("step {i}: {e}"))?,
                None => self
                    .orig_latches
                    .iter()
                    .zip(&self.latch_var)
                    .filter_map(|(&(o, reset), r)| {
                        let b = r.map_or(reset.unwrap_or(false), |r| rs[r.index()]);
                        o.map(|o| (o, b))
                    })
                    .collect(),
            };
            for (o, r) in self.orig_inputs.iter().zip(&self.input_var) {
                if let Some(o) = o {
                    given.push((*o, r.is_some_and(|r| rs[r.index()])));
                }
            }
            states.push(st.complete(&given).map_err(|e| format!("state {i}: {e}"))?);
        }
        Ok(Plan { states })
    }

    fn invariant(&self, inv: &Cnf, n: u32) -> Result<Cnf, String> {
        let mut out = Cnf::new();
        out.reserve_vars(n);
        for c in inv.iter() {
            let clause = c
                .iter()
                .map(|l| {
                    self.to_original
                        .get(l.var().index())
                        .copied()
                        .flatten()
                        .map(|o| crate::sat::Lit::new(o, l.is_negated()))
                        .ok_or_else(|| {
                            format!(
                                "the invariant mentions variable {} that is not a latch",
                                l.var().0
                            )
                        })
                })
                .collect::<Result<Vec<_>, String>>()?;
            out.push(&clause);
        }
        for c in &self.equivalences {
            out.push(c);
        }
        Ok(out)
    }
}

/// The clauses over the original latch variables that say what latch correspondence proved:
/// each merged latch equal to its representative (two clauses) or to its constant (one).
fn equivalences(repr: &[Option<Repr>], latch_var: &[Option<Var>]) -> Vec<Vec<crate::sat::Lit>> {
    let mut out = Vec::new();
    for (j, r) in repr.iter().enumerate() {
        // Only latches of the original system take part (`eligible` above).
        let (Some(r), Some(x)) = (r, latch_var[j]) else {
            continue;
        };
        match *r {
            Repr::Const(b) => out.push(vec![x.pos().xor_sign(!b)]),
            Repr::Latch(h, flip) => {
                let Some(y) = latch_var[h] else { continue };
                let y = y.pos().xor_sign(flip);
                out.push(vec![x.neg(), y]);
                out.push(vec![x.pos(), !y]);
            }
        }
    }
    out
}
