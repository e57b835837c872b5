//! `euf`: abstraction by uninterpreted functions with refinement from spurious
//! counterexamples, after EUForia (Bueno and Sakallah, "EUForia: Uninterpreted Functions
//! Abstraction with Incremental Induction"), in pure SAT.
//!
//! For properties about control, most of a program's arithmetic does not matter, and the
//! circuits of multiplication, division, remainder and shifts by a variable are what makes its
//! bit-level system large and its SAT queries slow. This engine replaces each application of
//! those operators in the program's word-level system by the output of an uninterpreted
//! function — a fresh input per application and step — with Ackermann's functional-consistency
//! constraints between applications of the same function in the same step
//! ([`abstraction`]). Everything else stays bit-precise: Booleans, comparisons, additions,
//! bitwise operations, the program counter. The outputs are bit-vectors of their width, so an
//! equality between values is the bitwise equivalence of their bits (the constraints are
//! bit-blasted with the rest of the system): no equality atoms or transitivity constraints are
//! needed. That is EUForia's abstraction of data *operations*.
//!
//! EUForia's full mode (`full`) abstracts every operation on bit-vectors but `=` and `ite` —
//! additions, bitwise operations, comparisons (uninterpreted predicates), extraction,
//! concatenation and extension —, with constant operands too. Values of width `n` then meet
//! only equality, `ite` and constants, as elements of an uninterpreted sort do. They are still
//! encoded as their `n` bits: the `2ⁿ` bit-vectors are one model of the sort in which distinct
//! constants are distinct elements, equality is bitwise equivalence (transitive by
//! construction, so no transitivity constraints), and the abstract system keeps the program's
//! latches, so its invariants are read in the precise system as they are. A small-domain
//! encoding (fewer bits per value, after Pnueli et al.'s range allocation) would shrink the
//! state, but its invariants would range over other variables and need a way back to the
//! program's; it is not built.
//!
//! The abstract system is an ordinary bit-level system over exactly the program's latches, so
//! abstract reachability is PDR ([`super::pdr`], the IC3 template's bit-level variant) with
//! everything it has, including predecessor lifting (sound here: the abstract system is a
//! circuit like any other, whose uninterpreted outputs are inputs). A SAFE answer's invariant
//! ranges over the latches, which mean the same in the precise system, and the abstract
//! system over-approximates the precise one, so the invariant is an ordinary certificate of the
//! precise system, re-checked by the independent checker like every other. An UNSAFE answer of
//! the abstract system is checked by running the precise system on the same inputs
//! ([`refine`]): a run that reaches the goal is the answer (replayed on the interpreter like
//! every counterexample); otherwise the applications with wrong outputs at the step where the
//! runs part get lemmas, and PDR runs again on the refined system, starting from the frames
//! the last run ended with (`keep-frames`, on by default): the refined system has the same
//! latches and a subset of the transitions, so every lemma still over-approximates what is
//! reachable within its level, and the frames keep their consecution
//! ([`Kept`](super::pdr::Kept)); the new run starts at the level where the old one found the
//! counterexample. (EUForia's description says abstract reachability restarts after a
//! refinement; the frames it had stay valid, so bitmc keeps them. The solvers are built
//! afresh, since the refined system is blasted anew.) An application refined `precise-after`
//! times is made precise. Refinement only removes abstract transitions, and
//! each lemma excludes the step that was taken; an application has finitely many argument and
//! output values, so the loop ends.
//!
//! On a program with nothing to abstract the engine is PDR on the precise system; with
//! `only-abstract`, as the default portfolio runs it beside PDR, it is idle there
//! ([`Engine::idle`]): alone it answers UNKNOWN, and a portfolio leaves it out of the race.
//!
//! `-v` shows the refinements, the lemmas, the PDR lemmas kept across refinements, the
//! applications abstract and made precise, the
//! sizes of the precise and the first abstract system, and the time in building, abstract
//! reachability (and its propagation) and refinement.

mod abstraction;
mod refine;
#[cfg(test)]
mod tests;

use super::optable::{Opt, OptionTable};
use super::pdr::{Kept, PdrOptions};
use super::preprocess::{Preprocess, Preprocessed};
use super::problem::{Problem, Program};
use super::{Certificate, Engine, Options, ProgressFn, Stats, Unknown, Verdict};
use crate::cnf::Cnf;
use crate::sat::{Lit, Var};
use crate::ts::model::{Original, Words};
use abstraction::{Abstraction, Built, Mode};
use refine::{Checked, Circuits};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Options of the `euf` engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EufOptions {
    /// Abstract applications with a constant operand too.
    pub constants: bool,
    /// EUForia's full mode: every operation on bit-vectors but `=` and `ite` abstracted.
    pub full: bool,
    /// Refinements of one application after which it is made precise.
    pub precise_after: usize,
    /// Start PDR after a refinement from the frames of the run before it.
    pub keep_frames: bool,
    /// Idle ([`Engine::idle`]) on a program with nothing to abstract, where the engine would
    /// be PDR on the precise system.
    pub only_abstract: bool,
}

impl Default for EufOptions {
    fn default() -> Self {
        EufOptions {
            constants: false,
            full: false,
            precise_after: 3,
            keep_frames: true,
            only_abstract: false,
        }
    }
}

impl OptionTable for EufOptions {
    const ENGINE: &'static str = "euf";
    const OPTIONS: &'static [Opt<Self>] = &[
        Opt::switch(
            "constants",
            "abstract products, quotients, remainders and shifts with a constant operand too",
            |o| &mut o.constants,
        ),
        Opt::switch(
            "full",
            "EUForia's full mode: additions, bitwise operations, comparisons, extractions and extensions abstracted too (all but = and ite)",
            |o| &mut o.full,
        ),
        Opt::switch(
            "keep-frames",
            "after a refinement, start PDR from the frames of the run before it (they stay valid: refinement only removes transitions)",
            |o| &mut o.keep_frames,
        ),
        Opt::switch(
            "only-abstract",
            "on a program with nothing to abstract, where the engine would be PDR, answer UNKNOWN at once (in a portfolio: stay out of the race)",
            |o| &mut o.only_abstract,
        ),
        Opt::number(
            "precise-after",
            "refinements of one application after which it is made precise",
            |o| &mut o.precise_after,
        ),
    ];
}

impl Engine for EufOptions {
    fn run(
        &self,
        problem: &Problem<'_>,
        opts: &Options,
        progress: ProgressFn<'_>,
    ) -> (Verdict, Stats) {
        if let Some(why) = self.idle(problem) {
            return (Verdict::Unknown(Unknown::incomplete(why)), Stats::new());
        }
        super::problem::on_program(problem, "euf", |p| run(p, opts, self, progress))
    }

    fn idle(&self, problem: &Problem<'_>) -> Option<String> {
        let p = problem.program_of()?;
        let nothing = self.only_abstract && abstraction::count(p.ps, self.mode()) == 0;
        nothing.then(|| "nothing to abstract (only-abstract): the engine would be PDR".into())
    }
}

impl EufOptions {
    /// Which applications the options abstract.
    fn mode(&self) -> Mode {
        Mode {
            constants: self.constants,
            full: self.full,
        }
    }
}

/// What the engine counts.
#[derive(Default)]
struct Counters {
    refinements: usize,
    lemmas: usize,
    /// Lemmas of PDR's frames carried into the run after a refinement.
    lemmas_kept: usize,
    made_precise: usize,
    abstracted: usize,
    /// Constraints of the last abstract system beyond the program counter's range.
    constraints: usize,
    /// Precise and first abstract system: AND gates, latches, system variables.
    precise_size: (usize, usize, u32),
    abstract_size: Option<(usize, usize, u32)>,
    time_build: Duration,
    time_reach: Duration,
    time_propagate: Duration,
    time_refine: Duration,
}

fn size(model: &crate::ts::model::Model, vars: u32) -> (usize, usize, u32) {
    (model.aig.num_ands(), model.latches.len(), vars)
}

/// Runs the engine on a program; the verdict is about the program's own system.
fn run(
    p: Program<'_>,
    opts: &Options,
    eo: &EufOptions,
    progress: ProgressFn<'_>,
) -> (Verdict, Stats) {
    let mut n = Counters {
        precise_size: size(&p.ps.model, p.ps.sys.num_vars),
        ..Counters::default()
    };
    let mut abs = Abstraction::new(p.cfa, p.ps, eo.mode());
    n.abstracted = abs.apps.len();
    let mut circuits = Circuits::default();
    let mut kept: Option<Kept> = None;
    let v = loop {
        if opts.interrupter.is_interrupted() {
            break super::stopped(opts);
        }
        let t = Instant::now();
        let built = abs.build();
        n.time_build += t.elapsed();
        n.constraints = built.constraints;
        n.abstract_size
            .get_or_insert_with(|| size(&built.blasted.model, built.ms.sys.num_vars));
        let t = Instant::now();
        let (v, pdr_stats, frames) = reach(&built, opts, progress, kept.take());
        n.time_reach += t.elapsed();
        if let Some(super::stats::Value::Count(c)) = pdr_stats.get(KEPT_STAT) {
            n.lemmas_kept += *c as usize;
        }
        if let Some(super::stats::Value::Time(d)) = pdr_stats.get("time propagating") {
            n.time_propagate += *d;
        }
        match v {
            Verdict::Safe(Certificate::Invariant(inv)) => break carry_invariant(p, &built, &inv),
            Verdict::Safe(Certificate::Trivial) => break Verdict::Safe(Certificate::Trivial),
            Verdict::Safe(_) => {
                break Verdict::Unknown(Unknown::internal("PDR gave no invariant"));
            }
            Verdict::Unknown(u) => break Verdict::Unknown(u),
            Verdict::Unsafe(plan) => {
                let t = Instant::now();
                let checked = refine::check(
                    p.cfa,
                    p.ps,
                    &mut abs,
                    &built,
                    &plan,
                    &mut circuits,
                    eo.precise_after,
                );
                n.time_refine += t.elapsed();
                match checked {
                    Ok(Checked::Real(plan)) => break Verdict::Unsafe(plan),
                    Ok(Checked::Refined {
                        lemmas,
                        made_precise,
                    }) => {
                        kept = frames.filter(|_| eo.keep_frames);
                        n.refinements += 1;
                        n.lemmas += lemmas;
                        n.made_precise += made_precise;
                    }
                    Err(e) => break Verdict::Unknown(Unknown::internal(e)),
                }
            }
        }
    };
    (v, stats(&n, abs.abstract_apps()))
}

/// PDR's statistic of the lemmas a run started with.
const KEPT_STAT: &str = "lemmas kept from an earlier run";

/// Renames every literal of kept frames by `map`; `None` when one has no name there (the
/// frames are only valid whole, [`Kept`]).
fn rename(kept: Kept, map: impl Fn(Var) -> Option<Var>) -> Option<Kept> {
    let lemmas = (kept.lemmas.iter())
        .map(|(level, cube)| Some((*level, rename_lits(cube, &map)?)))
        .collect::<Option<_>>()?;
    Some(Kept { k: kept.k, lemmas })
}

/// The literals with their variables renamed by `map`; `None` when one has no name there.
fn rename_lits(lits: &[Lit], map: &impl Fn(Var) -> Option<Var>) -> Option<Vec<Lit>> {
    (lits.iter())
        .map(|l| map(l.var()).map(|v| Lit::new(v, l.is_negated())))
        .collect()
}

/// The model latch (as `Var(j)` for latch `j`) of each variable that is a latch in
/// `latch_var`.
fn latch_of(latch_var: &[Option<Var>]) -> HashMap<Var, Var> {
    (latch_var.iter().enumerate())
        .filter_map(|(j, v)| v.map(|v| (v, Var(j as u32))))
        .collect()
}

/// PDR on the abstract system, after SAT sweeping as PDR runs in a portfolio, starting from
/// the frames `kept` by the run before the last refinement (over model latches, `Var(j)` for
/// latch `j`): the refined system has the same latches and a subset of the transitions, so
/// they hold ([`Kept`]). The verdict is about the abstract system; the frames it ended with
/// come back over model latches (`None` when a lemma names a variable that is not one).
fn reach(
    built: &Built,
    opts: &Options,
    progress: ProgressFn<'_>,
    kept: Option<Kept>,
) -> (Verdict, Stats, Option<Kept>) {
    let (b, ms) = (&built.blasted, &built.ms);
    let original = Original {
        model: &b.model,
        sys: &ms.sys,
        latch_var: &ms.latch_var,
        input_var: &ms.input_var,
        words: Words {
            latches: b.state.iter().map(|(_, bits)| bits.clone()).collect(),
            inputs: (b.slots.iter().map(|s| s.inputs.clone()))
                .chain(b.extra.iter().cloned())
                .collect(),
        },
    };
    let pdr = PdrOptions::default();
    let pre = Preprocessed::new(original, Preprocess::Sweep, opts.backend, &opts.interrupter);
    let (sys, latch_var) = match &pre {
        Some(pre) => (&pre.sys, pre.latch_var()),
        None => (&ms.sys, &ms.latch_var[..]),
    };
    let kept = kept.and_then(|k| rename(k, |j| latch_var.get(j.index()).copied().flatten()));
    let (v, stats, frames) = pdr.run_resumed(sys, opts, progress, kept);
    let latches = latch_of(latch_var);
    let frames = rename(frames, |v| latches.get(&v).copied());
    match &pre {
        Some(pre) => (pre.carry_back(&ms.sys, v), stats, frames),
        None => (v, stats, frames),
    }
}

/// The abstract system's invariant over the precise system's variables: the latches are the
/// same model latches in both.
fn carry_invariant(p: Program<'_>, built: &Built, inv: &Cnf) -> Verdict {
    let latches = latch_of(&built.ms.latch_var);
    let precise = |v: Var| latches.get(&v).and_then(|j| p.ps.latch_var[j.index()]);
    let mut out = Cnf::new();
    out.reserve_vars(p.ps.sys.num_vars);
    for clause in inv.iter() {
        match rename_lits(clause, &precise) {
            Some(c) => out.push(&c),
            None => {
                return Verdict::Unknown(Unknown::incomplete(
                    "the abstract system's invariant speaks of bits outside the precise system's cone of influence, which it leaves out",
                ))
            }
        }
    }
    Verdict::Safe(Certificate::Invariant(out))
}

fn stats(n: &Counters, still_abstract: usize) -> Stats {
    let mut s = Stats::new();
    let (pa, pl, pv) = n.precise_size;
    let (aa, al, av) = n.abstract_size.unwrap_or_default();
    s.counter("refinements", n.refinements)
        .counter("lemmas", n.lemmas)
        .counter("PDR lemmas kept across refinements", n.lemmas_kept)
        .counter("applications abstracted", n.abstracted)
        .counter("applications made precise", n.made_precise)
        .counter("applications abstract at the end", still_abstract)
        .counter("constraints of the last abstract system", n.constraints)
        .text(
            "precise system (ands / latches / variables)",
            format!("{pa} / {pl} / {pv}"),
        )
        .text(
            "abstract system (ands / latches / variables)",
            format!("{aa} / {al} / {av}"),
        )
        .time("time building abstract systems", n.time_build)
        .time("time in abstract reachability", n.time_reach)
        .time("time propagating (within reachability)", n.time_propagate)
        .time("time refining", n.time_refine);
    s
}
