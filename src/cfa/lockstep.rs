//! Lock-step comparison of two CFAs on the interpreter: an original and one derived from it by
//! passes that remove locations and rewrite edges (propagation, slicing, dead-variable
//! elimination, large-block encoding, folding) or that let a loop jump over iterations
//! (acceleration).
//!
//! The derived CFA runs on a nondet sequence, the original on the same sequence (a jump over
//! `N` iterations expanded into them, [`Accelerated::expand`]). Passes keep every havoc
//! of a call, so those values stay at their positions; dead-variable elimination and slicing
//! may remove the havoc of an uninitialised declaration, so passes are compared with
//! [`RunOptions::uninit_zero`], under which such havocs take 0 and consume nothing. Locations are related by their keys
//! ([`super::LocKey`]): the original's run, restricted to the locations that the derived CFA
//! still has, must visit the derived run's locations in the same order (a jump's location once
//! per iteration), and at each of them the variables live there in the derived CFA must have
//! the same values in both runs. The runs must end the same way: at the same error location or
//! sink, at the exit, or blocked; for passes that may change how executions that reach no
//! target end (the cone of influence), only reaching a target must agree.

use super::fold::MAX_FOLD;
use super::interp::{run_with, Nondet, Outcome, RunOptions, Step};
use super::{live_variables, Accelerated, Cfa};

/// The first point where the derived CFA's run and the original's differ.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("step {step} of the derived CFA: {what}")]
pub struct RunsDiffer {
    pub step: usize,
    pub what: String,
}

/// How the runs of a derived CFA must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// The same way.
    Same,
    /// Reaching a target (error, sink) the same way; other ends may differ (the cone of
    /// influence drops what cannot lead to a target).
    SameTargets,
    /// The same way unless the derived run is blocked (a jump over more iterations than the
    /// loop runs).
    UnlessBlocked,
}

/// A CFA derived from an original one.
#[derive(Clone, Copy)]
pub enum Derived<'a> {
    /// By passes that keep every step a sequence of the original's steps.
    Passes(&'a Cfa),
    /// By folding and acceleration: its jumps are expanded into iterations.
    Accelerated(&'a Accelerated),
}

impl Derived<'_> {
    /// The derived CFA.
    pub fn cfa(&self) -> &Cfa {
        match self {
            Derived::Passes(c) => c,
            Derived::Accelerated(a) => &a.cfa,
        }
    }
}

/// The most steps the original CFA takes in one comparison.
const MAX_ORIGINAL_STEPS: usize = 4_000_000;

/// The number of iterations a step of the derived CFA jumps over (acceleration's count, a
/// variable that the original does not have), if it is a jump.
fn jump(s: &Step, original_vars: usize) -> Option<u128> {
    s.nondet
        .iter()
        .find(|(v, _)| v.index() >= original_vars)
        .map(|&(_, n)| n)
}

fn jumped(s: &Step, original_vars: usize) -> u128 {
    jump(s, original_vars).unwrap_or(0)
}

fn differ(step: usize, what: impl Into<String>) -> RunsDiffer {
    RunsDiffer {
        step,
        what: what.into(),
    }
}

/// Runs `derived` on `nondet` with `opts` (its step limit, and whether uninitialised
/// declarations take 0) and `original` on the same values, and compares them (see the module
/// doc); returns the number of points of the derived run compared (0 when its jumps stand for
/// too many iterations to run the original).
pub fn compare_runs(
    original: &Cfa,
    derivation: Derived<'_>,
    nondet: &[u128],
    opts: RunOptions,
    ends: Ends,
) -> Result<usize, RunsDiffer> {
    let derived = derivation.cfa();
    let opts = RunOptions {
        record: true,
        ..opts
    };
    let (d_out, d_steps) = run_with(derived, nondet, opts);
    let Some((seq, o_limit)) = original_input(original, derivation, nondet, &d_steps) else {
        return Ok(0);
    };
    let o_opts = RunOptions {
        step_limit: o_limit,
        ..opts
    };
    let (o_out, o_steps) = run_with(original, &seq, o_opts);
    let walk = Walk {
        original,
        derived,
        map: derived.loc_by_key(original),
        o_out: &o_out,
        o_steps: &o_steps,
    };
    if walk.map[original.init.index()] != Some(derived.init) {
        return Err(differ(0, "the initial locations differ"));
    }
    match walk.follow(&d_steps)? {
        Followed::Whole { o_next } => walk.compare_ends(&d_out, d_steps.len(), o_next, ends),
        Followed::OriginalCut { compared } => Ok(compared),
    }
}

/// The values the original runs on, and its step limit: the derived run's values, with the
/// iterations its jumps stand for expanded when it is accelerated; `None` when they stand for
/// too many.
fn original_input(
    original: &Cfa,
    derivation: Derived<'_>,
    nondet: &[u128],
    d_steps: &[Step],
) -> Option<(Vec<u128>, usize)> {
    let nv = original.vars.len();
    let iterations: u128 = d_steps.iter().map(|s| jumped(s, nv)).sum();
    let mut seq = nondet.to_vec();
    if let Derived::Accelerated(a) = derivation {
        let limit = MAX_ORIGINAL_STEPS as u128;
        let (expanded, _) = a.expand(Nondet::Sequence(nondet), d_steps, limit)?;
        seq = expanded;
        // The values the derived run read beyond those it consumed, for the original's last
        // attempts.
        let consumed: usize = d_steps.iter().map(|s| s.nondet.len()).sum();
        seq.extend(nondet.iter().skip(consumed));
    }
    let per_step = original.locations.len().max((MAX_FOLD + 2).pow(2));
    let o_limit = (d_steps.len() + iterations as usize + 1)
        .saturating_mul(per_step)
        .min(MAX_ORIGINAL_STEPS);
    Some((seq, o_limit))
}

/// The original's run, followed along the derived one's.
struct Walk<'a> {
    original: &'a Cfa,
    derived: &'a Cfa,
    /// The derived location of each original one that has one.
    map: Vec<Option<crate::cfa::Loc>>,
    o_out: &'a Outcome,
    o_steps: &'a [Step],
}

/// How far the original's run followed the derived one's.
enum Followed {
    /// Through every derived step; the original's next step.
    Whole { o_next: usize },
    /// The original reached its step limit after this many derived points were compared.
    OriginalCut { compared: usize },
}

impl Walk<'_> {
    /// After each derived step (and each iteration it jumps over), the original's run up to
    /// its next location that the derived CFA has: the same location, the same values of the
    /// variables live there.
    fn follow(&self, d_steps: &[Step]) -> Result<Followed, RunsDiffer> {
        let (original, derived, map) = (self.original, self.derived, &self.map);
        let nv = original.vars.len();
        let live = live_variables(derived);
        let mut o_vals = vec![0u128; nv];
        let mut d_vals = vec![0u128; derived.vars.len()];
        let mut o_loc = original.init;
        let mut oi = 0usize;
        for (i, s) in d_steps.iter().enumerate() {
            for &(v, x) in &s.writes {
                d_vals[v.index()] = x;
            }
            let q = derived.edge(s.edge).to;
            for _ in 0..=jumped(s, nv) {
                loop {
                    let Some(os) = self.o_steps.get(oi) else {
                        if matches!(self.o_out, Outcome::StepLimit { .. }) {
                            return Ok(Followed::OriginalCut { compared: i });
                        }
                        let what = format!(
                            "the original ends with {:?}, the derived CFA goes on to {q}",
                            self.o_out
                        );
                        return Err(differ(i, what));
                    };
                    oi += 1;
                    for &(v, x) in &os.writes {
                        o_vals[v.index()] = x;
                    }
                    o_loc = original.edge(os.edge).to;
                    if map[o_loc.index()].is_some() {
                        break;
                    }
                }
            }
            if map[o_loc.index()] != Some(q) {
                let there = map[o_loc.index()];
                let what =
                    format!("the derived CFA is at {q}, the original at {o_loc} ({there:?} there)");
                return Err(differ(i, what));
            }
            if let Some(v) = (0..nv).find(|&v| live[q.index()][v] && o_vals[v] != d_vals[v]) {
                let what = format!(
                    "at {q} `{}` is {} in the original, {} in the derived CFA",
                    original.vars[v].name, o_vals[v], d_vals[v]
                );
                return Err(differ(i, what));
            }
        }
        Ok(Followed::Whole { o_next: oi })
    }

    /// Whether the two runs end alike, as `ends` says, after `n` compared steps; the original
    /// from its step `o_next` on must not reach a location the derived CFA has.
    fn compare_ends(
        &self,
        d_out: &Outcome,
        n: usize,
        o_next: usize,
        ends: Ends,
    ) -> Result<usize, RunsDiffer> {
        let o_out = self.o_out;
        let target = |o: &Outcome| match o {
            Outcome::Error { .. } => Some("error".to_string()),
            Outcome::Sink { reason, .. } => Some(format!("sink {reason}")),
            _ => None,
        };
        let class = |o: &Outcome| match o {
            Outcome::Exit => Some("exit".to_string()),
            Outcome::AssumeFailed { .. } => Some("blocked".to_string()),
            Outcome::NondetExhausted { .. } | Outcome::StepLimit { .. } => None,
            t => target(t),
        };
        let (Some(d_end), Some(o_end)) = (class(d_out), class(o_out)) else {
            return Ok(n + 1);
        };
        let later_visit = self.o_steps[o_next..]
            .iter()
            .map(|s| self.original.edge(s.edge).to)
            .find(|l| self.map[l.index()].is_some());
        let same = match ends {
            Ends::Same => d_end == o_end && later_visit.is_none(),
            Ends::SameTargets => target(d_out) == target(o_out),
            Ends::UnlessBlocked => {
                matches!(d_out, Outcome::AssumeFailed { .. })
                    || (d_end == o_end && later_visit.is_none())
            }
        };
        if !same {
            return Err(differ(
                n,
                format!("the derived CFA ends with {d_out:?}, the original with {o_out:?} (later at {later_visit:?})"),
            ));
        }
        Ok(n + 1)
    }
}
