//! Verifying a C program: from its CFA to a checked verdict.
//!
//! 1. The CFA is encoded as a transition system whose bad states are the error location and
//!    the UNKNOWN sinks ([`crate::ts::program`]), and an engine runs on it.
//! 2. The engine's verdict is checked on the bit-level system ([`crate::witness`]): a plan is
//!    re-simulated, a certificate re-checked by another SAT backend.
//! 3. A plan's nondet values (the input slots of every step) are replayed on the CFA interpreter
//!    from the initial location, and so are the values that replay consumed, as one sequence.
//!    Only replays that both reach the error location give FALSE. A replay that reaches
//!    a sink means the program can reach something bitmc cannot judge (e.g. an out-of-bounds
//!    access under `unreach-call`); the error location alone is then checked again: FALSE if it
//!    is reachable, otherwise UNKNOWN with the sink's reason.
//! 4. SAFE for the system (error and sinks unreachable) gives TRUE.

use crate::bv::{Rewrites, TermId};
use crate::cfa::{self, interp, Cfa, LocKind, Property};
use crate::engine::houdini;
use crate::engine::portfolio::{About, Program, Strategy, Systems};
use crate::engine::preprocess::{Preprocess, Preprocessed};
use crate::engine::{Options, ProgressFn, Stats, Unknown, Verdict};
use crate::sat::{with_deadline, Interrupter};
use crate::ts::invariants::{self, Candidate, Templates};
use crate::ts::model::ModelSystem;
use crate::ts::poly;
use crate::ts::program::{encode, EncodeOptions, Goal, PcEncoding, ProgramSystem};
use crate::witness;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The backend that searches for candidate invariants (another one re-checks them).
const INVARIANT_BACKEND: crate::sat::Backend = crate::sat::Backend::Cadical;

/// The most candidate invariants tried.
const MAX_CANDIDATES: usize = 4000;

/// The most steps (of 64 random runs each) simulated to refute candidates before Houdini.
const SIM_STEPS: usize = 4000;

/// Options of a verification run.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    pub strategy: Strategy,
    pub max_depth: Option<usize>,
    pub pc: PcEncoding,
    pub interrupter: Interrupter,
    /// How long k-induction searches for candidate invariants before it runs on the system
    /// constrained by the proved ones (the other members run meanwhile). `None` skips the
    /// search.
    pub invariant_budget: Option<Duration>,
    /// How the system is preprocessed before PDR and BMC run on it.
    pub preprocess: Preprocess,
    /// What a counterexample that depends on a function without a definition is.
    pub undefined_calls: UndefinedCalls,
    /// A fault to inject, for the tests of how internal errors are reported (`None` in every
    /// real run).
    pub fault: Option<Fault>,
}

/// What a counterexample is whose path depends on the result or the effects of a function
/// without a definition (or model), see [`cfa::taint`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UndefinedCalls {
    /// UNKNOWN: the program does not state what the function does.
    #[default]
    Unknown,
    /// A violation: the function may return any value and write any global it can see, as
    /// SV-COMP's environment model has it.
    Nondet,
}

/// A fault injected into a verification run, so that tests can check how bitmc reports an
/// internal error wherever it arises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// In the given phase (1: the error location and the sinks; 2: the error location alone,
    /// after a sink was reached), the check of every conclusive verdict fails as if the
    /// evidence did not hold.
    RejectEvidence { phase: u8 },
}

/// A counterexample: the nondet sequence and its replay on the interpreter.
#[derive(Clone, Debug)]
pub struct ProgramTrace {
    /// The nondet values of the program along the trace, in order (what its
    /// `__VERIFIER_nondet_*` calls and uninitialised declarations take).
    pub nondet: Vec<u128>,
    /// Whether `nondet` are the program's values: false only for a counterexample of the
    /// accelerated CFA too long to expand, whose values are that CFA's (with the iteration
    /// count of each jump).
    pub expanded: bool,
    pub outcome: interp::Outcome,
    pub steps: Vec<interp::Step>,
    /// The CFA the trace was replayed on when it is not the one verified: the copy whose loops
    /// are accelerated ([`cfa::accelerate`]); its steps' edges are that CFA's.
    pub accelerated: Option<Box<Cfa>>,
}

impl ProgramTrace {
    /// The counterexample's run on the program as written: `original`, the CFA the front end
    /// built, from which `verified` (what the engines ran on) derives by passes; the values of
    /// uninitialised declarations are those the counterexample gave them
    /// ([`witness::source_run`]). Its steps, or why there are none: the counterexample is the
    /// accelerated CFA's and too long to expand, the run takes more than `step_limit` steps,
    /// or it does not reach the error (an internal error).
    pub fn source_run(
        &self,
        original: &Cfa,
        verified: &Cfa,
        step_limit: usize,
    ) -> Result<Vec<interp::Step>, String> {
        use witness::source_run::{replay, Uninit};
        let expanded;
        let steps = match &self.accelerated {
            None => &self.steps,
            Some(_) if !self.expanded => {
                return Err(format!(
                    "the counterexample was not replayed on the program as written (its jumps stand for over {ORIGINAL_REPLAY_STEPS} steps, or for a nested loop's whole run)"
                ))
            }
            Some(_) => {
                let opts = interp::RunOptions {
                    step_limit,
                    ..interp::RunOptions::default()
                };
                let (outcome, steps) = interp::run_with(verified, &self.nondet, opts);
                if !matches!(outcome, interp::Outcome::Error { .. }) {
                    return Err(too_long_or(outcome, step_limit));
                }
                expanded = steps;
                &expanded
            }
        };
        match replay(original, verified, steps, Uninit::AsFound, step_limit) {
            (interp::Outcome::Error { .. }, steps) => Ok(steps),
            (outcome, _) => Err(too_long_or(outcome, step_limit)),
        }
    }
}

/// Why a run on the program as written gives no trace.
fn too_long_or(outcome: interp::Outcome, step_limit: usize) -> String {
    match outcome {
        interp::Outcome::StepLimit { .. } => {
            format!("the run on the program as written takes over {step_limit} steps")
        }
        other => format!(
            "internal error: the counterexample does not reach the error on the program as written (it ends with {other:?})"
        ),
    }
}

/// The verdict about a program.
#[derive(Clone, Debug)]
pub enum ProgramVerdict {
    /// The property holds.
    True,
    /// The property is violated along this (replayed) trace.
    False(Property, ProgramTrace),
    /// No verdict, and why (its cause says whether it is an internal error).
    Unknown(Unknown),
}

/// What a verification run produced.
pub struct VerifyResult {
    pub verdict: ProgramVerdict,
    /// The engine (portfolio member) whose verdict this is.
    pub winner: Option<String>,
    pub stats: Stats,
    /// How often each rewrite rule fired while the program's terms were built (front end,
    /// passes and the encoding of the last phase), for `-v`.
    pub rewrites: Rewrites,
    /// What was checked, one line each (for `-v`).
    pub notes: Vec<String>,
    /// For TRUE proved by an inductive invariant: the invariant per location, as C
    /// expressions over the program variables.
    pub invariant: Option<ProvedInvariants>,
    /// For TRUE by k-induction on the system constrained by candidate invariants: those
    /// invariants per location (each holds, but they need not be inductive alone).
    pub proved_invariants: Option<ProvedInvariants>,
}

/// Invariants per location, as conjuncts in C.
pub type ProvedInvariants = Vec<(crate::cfa::Loc, Vec<crate::engine::Conjunct>)>;

/// The proved candidates that C can state, grouped by location.
fn proved_in_c(cfa: &Cfa, proven: &[Candidate]) -> ProvedInvariants {
    let mut at: std::collections::BTreeMap<crate::cfa::Loc, Vec<crate::engine::Conjunct>> =
        Default::default();
    for c in proven {
        if let Some((text, vars)) = &c.c {
            let here = at.entry(c.loc).or_default();
            if !here.iter().any(|k| &k.text == text) {
                here.push(crate::engine::Conjunct {
                    text: text.clone(),
                    vars: vars.iter().map(|&v| cfa.var(v).name.clone()).collect(),
                });
            }
        }
    }
    at.into_iter().collect()
}

/// Prepare a lowered CFA for encoding: slicing, propagation, dead-variable elimination, and
/// large-block encoding (each pass keeps the program's behaviour).
pub fn prepare(cfa: &Cfa, lbe: bool) -> Cfa {
    cfa::prepare(cfa, lbe)
}

enum Phase {
    Violation(ProgramTrace),
    Sink(String),
    Safe,
    Unknown(Unknown),
}

/// The systems a phase derives from its program system when a member first asks for them, and
/// what making them found.
#[derive(Default)]
struct Derived {
    /// The system constrained by proved candidate invariants, for k-induction.
    strengthened: OnceLock<Option<(ModelSystem, ProvedInvariants)>>,
    /// The statistics and notes of the search for those invariants.
    search: Mutex<(Stats, Vec<String>)>,
    /// The CFA with accelerated loops and its system, for BMC.
    accelerated: OnceLock<Option<(cfa::Accelerated, ProgramSystem, Duration)>>,
    /// The preprocessed system, for PDR and BMC.
    preprocessed: OnceLock<Option<Preprocessed>>,
}

impl Derived {
    fn constrained(
        &self,
        cfa: &Cfa,
        ps: &ProgramSystem,
        opts: &VerifyOptions,
        intr: &Interrupter,
    ) -> Option<&crate::ts::System> {
        self.strengthened
            .get_or_init(|| {
                let budget = opts.invariant_budget?;
                let mut report = self.search.lock().ok()?;
                let (stats, notes) = &mut *report;
                strengthen(cfa, ps, budget, intr, stats, notes)
            })
            .as_ref()
            .map(|(m, _)| &m.sys)
    }

    fn accelerated(
        &self,
        cfa: &Cfa,
        goal: Goal,
        opts: &VerifyOptions,
        intr: &Interrupter,
    ) -> Option<&crate::ts::System> {
        self.accelerated
            .get_or_init(|| {
                let start = Instant::now();
                let a = accelerate_for_bmc(cfa, intr)?;
                let took = start.elapsed();
                let ps = encode(&a.cfa, EncodeOptions { pc: opts.pc, goal });
                Some((a, ps, took))
            })
            .as_ref()
            .map(|(_, aps, _)| &aps.sys)
    }

    fn preprocessed(
        &self,
        ps: &ProgramSystem,
        opts: &VerifyOptions,
        intr: &Interrupter,
    ) -> Option<&Preprocessed> {
        self.preprocessed
            .get_or_init(|| {
                Preprocessed::new(
                    ps.original(),
                    opts.preprocess,
                    crate::sat::Backend::Cadical,
                    intr,
                )
            })
            .as_ref()
    }
}

/// Checks a member's verdict on the system it is about; the notes of the checks go to `notes`,
/// and under an injected fault a conclusive verdict is rejected.
fn checker(
    reject: bool,
    notes: &Mutex<Vec<String>>,
) -> impl Fn(&crate::ts::System, Verdict, crate::sat::Backend, &Options) -> Verdict + Sync + '_ {
    move |s, v, b, o| {
        let c = witness::check_bit_level(s, v, b, o);
        let c = match c.verdict {
            Verdict::Safe(_) | Verdict::Unsafe(_) if reject => witness::Checked {
                verdict: Verdict::Unknown(Unknown::internal(
                    "the evidence was rejected (injected fault)",
                )),
                note: c.note,
            },
            _ => c,
        };
        if let Ok(mut n) = notes.lock() {
            n.push(c.note);
        }
        c.verdict
    }
}

fn run_phase(
    cfa: &Cfa,
    goal: Goal,
    phase: u8,
    opts: &VerifyOptions,
    progress: ProgressFn<'_>,
    out: &mut VerifyResult,
) -> Phase {
    // Solvers of an earlier phase are no longer needed.
    crate::engine::graveyard::release();
    let mut ps = encode(cfa, EncodeOptions { pc: opts.pc, goal });
    out.rewrites = ps.tm.rewrites().clone();
    out.stats
        .counter("state bits", ps.sys.latch_vars().len())
        .counter("system variables", ps.sys.num_vars);
    let eopts = Options {
        backend: crate::sat::Backend::Cadical,
        max_depth: opts.max_depth,
        interrupter: opts.interrupter.clone(),
    };
    let notes = Mutex::new(Vec::new());
    let derived = Derived::default();
    let r = {
        let base = checker(opts.fault == Some(Fault::RejectEvidence { phase }), &notes);
        let (ps, d) = (&ps, &derived);
        let check = confirming(base, d, cfa);
        let constrain = |intr: &Interrupter| d.constrained(cfa, ps, opts, intr);
        let accelerate = |intr: &Interrupter| d.accelerated(cfa, goal, opts, intr);
        let prepare = |intr: &Interrupter| d.preprocessed(ps, opts, intr);
        let systems = Systems {
            plain: &ps.sys,
            constrained: Some(&constrain),
            accelerated: Some(&accelerate),
            program: Some(Program { cfa, ps }),
            preprocessed: Some(&prepare),
        };
        opts.strategy.run(&systems, &eopts, &check, progress)
    };
    let (mut constrained, proved) = derived.strengthened.into_inner().flatten().unzip();
    let accelerated = derived.accelerated.into_inner().flatten();
    if let Some(p) = derived.preprocessed.into_inner().flatten() {
        out.stats.extend(p.stats(&ps.sys));
    }
    if let Some((a, _, took)) = &accelerated {
        out.notes.push(accelerated_note(a, *took));
    }
    if let Ok((stats, notes)) = derived.search.into_inner() {
        out.stats.extend(stats);
        out.notes.extend(notes);
    }
    // Decode the verdict with the maps of the system it is about: a certificate of the
    // constrained system holds with the proved invariants; a path of the accelerated system is
    // decoded with that system's maps and replayed on the accelerated CFA, then on the
    // original one.
    let replayed = match (&accelerated, r.about) {
        (Some((a, aps, _)), About::Accelerated) => Some((a, aps)),
        _ => None,
    };
    if let (About::Constrained, Some(c)) = (r.about, constrained.as_mut()) {
        ps.swap_system(c);
        out.proved_invariants = proved;
    }
    out.stats.extend(r.stats);
    out.winner = r.winner.map(|w| w.to_string());
    let notes = notes.into_inner().unwrap_or_default();
    out.notes
        .extend(notes.into_iter().filter(|n| !n.is_empty()));
    match r.verdict {
        Verdict::Safe(cert) => {
            out.invariant = invariant_of(&cert, cfa, &ps);
            Phase::Safe
        }
        Verdict::Unknown(r) => Phase::Unknown(r),
        Verdict::Unsafe(plan) => violation(cfa, &ps, goal, &plan, replayed, out),
    }
}

/// The note on the loops accelerated for BMC.
fn accelerated_note(a: &cfa::Accelerated, took: Duration) -> String {
    let proved = if a.loops.is_empty() {
        String::new()
    } else {
        format!(
            " (jumps proved sound by batsat in {:.3} s)",
            took.as_secs_f64()
        )
    };
    format!("for BMC: {}{proved}", a.summary())
}

/// The per-location invariant of a SAFE certificate that has one, as C.
fn invariant_of(
    cert: &crate::engine::Certificate,
    cfa: &Cfa,
    ps: &ProgramSystem,
) -> Option<Vec<(crate::cfa::Loc, Vec<crate::engine::Conjunct>)>> {
    match cert {
        // Invariant certificates come from PDR, which runs on the plain system.
        crate::engine::Certificate::Invariant(inv) => {
            Some(witness::invariant::c_invariants(cfa, ps, inv))
        }
        crate::engine::Certificate::Circuit(inv) => Some(
            inv.text
                .iter()
                .map(|(l, t)| (crate::cfa::Loc(*l), t.clone()))
                .collect(),
        ),
        _ => None,
    }
}

/// A plan of the program's system replayed on the interpreter: of the accelerated CFA and its
/// system when BMC found it there (`replayed`), then on the original CFA; a violation, a sink,
/// or UNKNOWN when the plan does not replay.
fn violation(
    cfa: &Cfa,
    ps: &ProgramSystem,
    goal: Goal,
    plan: &crate::ts::Plan,
    replayed: Option<(&cfa::Accelerated, &ProgramSystem)>,
    out: &mut VerifyResult,
) -> Phase {
    let (rcfa, rps) = replayed.map(|(a, aps)| (&a.cfa, aps)).unwrap_or((cfa, ps));
    let replay = rps.replay(rcfa, plan, plan.states.len() + 16);
    if replay.outcome.is_target() && replay.sequence_outcome != replay.outcome {
        return Phase::Unknown(Unknown::internal(format!(
            "the counterexample replays on the interpreter, but its nondet values as one sequence do not (it ends with {:?})",
            replay.sequence_outcome
        )));
    }
    match &replay.outcome {
        interp::Outcome::Error { .. } if goal != Goal::Sink => {
            out.notes.push(format!(
                "trace of {} steps replayed on the interpreter",
                replay.steps.len()
            ));
            // Found on the accelerated CFA: replayed on the original one too, where the
            // nondet values of the program come from.
            let (program_values, accelerated) = match replayed {
                None => (None, None),
                Some((a, _)) => match replay_on_original(cfa, a, &replay) {
                    Ok((note, values)) => {
                        out.notes.push(note);
                        (values, Some(Box::new(a.cfa.clone())))
                    }
                    Err(e) => return Phase::Unknown(Unknown::internal(e)),
                },
            };
            Phase::Violation(ProgramTrace {
                expanded: accelerated.is_none() || program_values.is_some(),
                nondet: program_values.unwrap_or(replay.nondet),
                outcome: replay.outcome,
                steps: replay.steps,
                accelerated,
            })
        }
        interp::Outcome::Sink { reason, .. } if goal != Goal::Error => Phase::Sink(reason.clone()),
        other => Phase::Unknown(Unknown::internal(format!(
            "the counterexample does not replay on the interpreter (it ends with {other:?})"
        ))),
    }
}

/// `check`, and then, for a counterexample of the accelerated system with unproved jumps,
/// its expansion on the original CFA ([`confirm_expanded`]): it counts only once replayed
/// there; otherwise the member's answer is UNKNOWN and the race goes on.
fn confirming<'a>(
    check: impl Fn(&crate::ts::System, Verdict, crate::sat::Backend, &Options) -> Verdict + Sync + 'a,
    d: &'a Derived,
    cfa: &'a Cfa,
) -> impl Fn(&crate::ts::System, Verdict, crate::sat::Backend, &Options) -> Verdict + Sync + 'a {
    move |s, v, b, o| match check(s, v, b, o) {
        Verdict::Unsafe(plan) => match d.accelerated.get() {
            Some(Some((a, aps, _))) if !a.unproved.is_empty() && std::ptr::eq(s, &aps.sys) => {
                match confirm_expanded(cfa, a, aps, &plan) {
                    Ok(()) => Verdict::Unsafe(plan),
                    Err(e) => Verdict::Unknown(Unknown::internal(e)),
                }
            }
            _ => Verdict::Unsafe(plan),
        },
        v => v,
    }
}

/// Whether a plan of the accelerated system `aps`, whose CFA has unproved jumps, stands for a
/// run of the program: it replays on the accelerated CFA, and, expanded, on the original one
/// too, reaching the error in both; why not otherwise.
fn confirm_expanded(
    cfa: &Cfa,
    a: &cfa::Accelerated,
    aps: &ProgramSystem,
    plan: &crate::ts::Plan,
) -> Result<(), String> {
    let replay = aps.replay(&a.cfa, plan, plan.states.len() + 16);
    if !replay.outcome.is_target() {
        return Err(format!(
            "the counterexample through a jump by closed forms does not replay (it ends with {:?})",
            replay.outcome
        ));
    }
    // With unproved jumps, a counterexample not replayed in full there is an error.
    replay_on_original(cfa, a, &replay).map(|_| ())
}

/// The most steps that a counterexample of the accelerated CFA is replayed with on the
/// original one.
const ORIGINAL_REPLAY_STEPS: usize = 2_000_000;

/// Replays a counterexample found on the accelerated CFA `a` (its `replay` there) on the
/// original `cfa`, each jump expanded into the iterations it stands for
/// ([`cfa::Accelerated::expand`]): a note and the program's nondet values when it reaches the
/// error there too; a note alone when it is too long to replay (each jump is proved sound, and
/// folded loops are exact); the description of an internal error when it ends otherwise.
fn replay_on_original(
    cfa: &Cfa,
    a: &cfa::Accelerated,
    replay: &crate::ts::program::Replay,
) -> Result<(String, Option<Vec<u128>>), String> {
    let limit = ORIGINAL_REPLAY_STEPS as u128;
    let slots = interp::Nondet::PerStep(&replay.slots);
    // A jump by closed forms is not proved: a run through one must be replayed in full.
    let unreplayed = |note: String| {
        if a.unproved.is_empty() {
            Ok((note, None))
        } else {
            Err(format!("{note}; a counterexample through a jump by closed forms (unproved) counts only when replayed there in full"))
        }
    };
    let Some((nondet, iterations)) = a.expand(slots, &replay.steps, limit) else {
        let why = match a.runs_nested_whole(&replay.steps) {
            true => "a nested loop's whole run taken at once".to_string(),
            false => format!("over {limit} iterations jumped over"),
        };
        return unreplayed(
            format!("not replayed on the original CFA: {why}; the nondet values are the accelerated CFA's, with the iteration counts"),
        );
    };
    let opts = interp::RunOptions {
        step_limit: ORIGINAL_REPLAY_STEPS,
        record: false,
        ..interp::RunOptions::default()
    };
    match interp::run_with(cfa, &nondet, opts).0 {
        interp::Outcome::Error { .. } => {
            let expanded = match iterations {
                0 => String::new(),
                n => format!(", with the {n} iterations jumped over taken one by one"),
            };
            Ok((
                format!("trace replayed on the original CFA too{expanded}"),
                Some(nondet),
            ))
        }
        interp::Outcome::StepLimit { .. } => unreplayed(
            format!("not replayed on the original CFA: over {ORIGINAL_REPLAY_STEPS} steps; the nondet values are the accelerated CFA's, with the iteration counts"),
        ),
        other => Err(format!(
            "the counterexample replays on the accelerated CFA but not on the original one (it ends with {other:?})"
        )),
    }
}

/// How long the soundness queries of all accelerated loops may take together.
const ACCELERATION_BUDGET: Duration = Duration::from_secs(2);

/// The CFA that BMC runs on: `cfa` with its loops accelerated where the jump is proved sound
/// (see [`cfa::accel`]), each query answered by batsat (BMC, which uses the result, runs
/// CaDiCaL), all within [`ACCELERATION_BUDGET`], after folding the loops of a fixed trip
/// count; `None` when no loop was folded or accelerated.
pub fn accelerate_for_bmc(cfa: &Cfa, interrupter: &Interrupter) -> Option<cfa::Accelerated> {
    let backend = crate::sat::Backend::Batsat;
    with_deadline(interrupter, Instant::now() + ACCELERATION_BUDGET, |intr| {
        cfa::accelerate(cfa, &mut |tm, t| witness::term_valid(tm, t, backend, intr))
    })
}

/// Search for candidate invariants of `ps` within `budget`: Houdini on comparisons, then on
/// linear relations together with the comparisons, then with scaled differences too (a
/// superset of an inductive set has an inductive subset containing it, so nothing proved is
/// lost; a phase cut by the deadline leaves the previous one's result), within the budget; then the
/// re-check by an independent backend within the rest of the budget, or the whole budget again
/// when that is longer (an independent solver may need longer for the same query).
/// Returns the system constrained by the invariants that passed both, and those invariants in
/// C where C can state them.
fn strengthen(
    cfa: &Cfa,
    ps: &ProgramSystem,
    budget: Duration,
    interrupter: &Interrupter,
    stats: &mut Stats,
    notes: &mut Vec<String>,
) -> Option<(ModelSystem, ProvedInvariants)> {
    let start = Instant::now();
    let backend = INVARIANT_BACKEND;
    let found = search_candidates(cfa, ps, start + budget, interrupter, stats, notes);
    houdini::release_unless_stopped(interrupter);
    stats
        .counter("candidate instances", found.instances)
        .counter("refuted by simulation", found.refuted);
    if found.cut > 0 {
        stats.counter(
            format!(
                "locations with untested instances (over {} per location)",
                invariants::MAX_EXAMINED
            ),
            found.cut,
        );
    }
    stats
        .counter("candidate invariants", found.tried)
        .counter("Houdini SAT calls", found.sat_calls)
        .counter("invariants proved", found.proven.len());
    let proven = invariants::strongest(found.proven);
    stats.counter("invariants used (not implied by others)", proven.len());
    let lits: Vec<_> = proven.iter().map(|c| c.lit).collect();
    let check = backend.independent_of();
    let searched = start.elapsed();
    let model = found.model;
    if proven.is_empty() && !found.poly_facts.is_empty() {
        // The model's constraints are the polynomial facts alone.
        houdini::release_unless_stopped(interrupter);
        let in_c = with_facts(Vec::new(), &found.poly_facts);
        return Some((invariants::constrained(&model, &[]), in_c));
    }
    let checked = (!proven.is_empty()).then(|| {
        with_deadline(interrupter, start + budget.max(searched + budget), |intr| {
            houdini::is_inductive(&model, &lits, check, intr)
        })
    });
    houdini::release_unless_stopped(interrupter);
    stats
        .time("time proving invariants", start.elapsed())
        .time("time searching invariants", searched)
        .time("time re-checking invariants", start.elapsed() - searched);
    let rechecking = start.elapsed() - searched;
    match checked? {
        Ok(true) => {
            notes.push(format!(
                "{} candidate invariants proved and re-checked by {check}; k-induction runs on the system constrained by them",
                proven.len()
            ));
            Some((
                invariants::constrained(&model, &lits),
                with_facts(proved_in_c(cfa, &proven), &found.poly_facts),
            ))
        }
        Ok(false) => {
            notes.push(format!(
                "internal error: {check} rejects the candidate invariants; none used"
            ));
            None
        }
        Err(_) if interrupter.is_interrupted() => None,
        Err(_) => {
            notes.push(format!(
                "{} candidate invariants proved but not used: the re-check by {check} did not finish within {:.1} s",
                proven.len(),
                rechecking.as_secs_f64()
            ));
            None
        }
    }
}

/// What the search for candidate invariants found: the model with the candidates' nodes, the
/// largest inductive set Houdini kept, and the counts for `-v`.
struct Found {
    model: crate::ts::model::Model,
    proven: Vec<Candidate>,
    tried: usize,
    instances: usize,
    refuted: usize,
    sat_calls: usize,
    cut: usize,
    /// Program equalities proved by polynomial invariants (constraints of `model`), in C.
    poly_facts: Vec<(crate::cfa::Loc, crate::engine::Conjunct)>,
}

/// Candidates of each template family in turn (comparisons, linear, scaled) that simulation
/// does not refute, and Houdini's largest inductive subset of all of them so far, within
/// `deadline` (the first sixth of the time left for simulation).
fn search_candidates(
    cfa: &Cfa,
    ps: &ProgramSystem,
    deadline: Instant,
    interrupter: &Interrupter,
    stats: &mut Stats,
    notes: &mut Vec<String>,
) -> Found {
    let start = Instant::now();
    let budget = deadline.saturating_duration_since(start);
    let backend = INVARIANT_BACKEND;
    // The candidates' nodes go into a copy of the model.
    let mut f = Found {
        model: ps.model.clone(),
        proven: Vec::new(),
        tried: 0,
        instances: 0,
        refuted: 0,
        sat_calls: 0,
        cut: 0,
        poly_facts: Vec::new(),
    };
    let words = ps.words();
    // Every candidate so far: a candidate of the first phase may need one of the second to be
    // inductive, so the second phase tries them all again (its result contains the first's).
    let mut all: Vec<Candidate> = Vec::new();
    let sampled = start + budget / 6;
    let mut samples = invariants::sample(cfa, ps, &mut f.model, SIM_STEPS, &|| {
        interrupter.is_interrupted() || Instant::now() >= sampled
    });
    stats.counter("simulation steps (64 runs each)", samples.steps);
    let poly_deadline = start + budget / 3;
    if let Some((model, n)) =
        polynomial_facts(cfa, ps, &samples, poly_deadline, interrupter, stats, notes)
    {
        f.model = model;
        f.poly_facts = n;
        samples.relocate(ps, &mut f.model);
    }
    with_deadline(interrupter, deadline, |intr| {
        for templates in [Templates::Comparisons, Templates::Linear, Templates::Scaled] {
            let stop = || intr.is_interrupted();
            let (new, sim) =
                invariants::candidates(&samples, &mut f.model, templates, MAX_CANDIDATES, &stop);
            f.cut += sim.cut;
            f.instances += sim.instances;
            f.refuted += sim.refuted;
            if new.is_empty() {
                continue;
            }
            f.tried += new.len();
            all.extend(new);
            let lits: Vec<_> = all.iter().map(|c| c.lit).collect();
            let Ok(found) = houdini::houdini(&f.model, &lits, Some(&words), backend, intr) else {
                if !interrupter.is_interrupted() {
                    notes.push(format!(
                        "candidate invariants from {templates:?} not used: the search took longer than {:.1} s",
                        budget.as_secs_f64()
                    ));
                }
                return;
            };
            f.sat_calls += found.sat_calls;
            f.proven = all
                .iter()
                .zip(&found.holds)
                .filter(|(_, &h)| h)
                .map(|(c, _)| c.clone())
                .collect();
        }
    });
    f
}

/// The model of `ps` constrained by the program equalities that polynomial invariants imply
/// ([`poly`]): candidates from `samples`, proved by polynomial arithmetic before `deadline`,
/// and those equalities in C (those of a size C can show); `None` when there are none.
///
/// The equalities are proved by exact polynomial identities modulo `2^w` (see
/// [`poly::prove`]), not by a SAT solver, whose proofs of products of 32-bit words do not
/// finish; the independent re-check of the other candidates and k-induction's certificate
/// take them as constraints of the system.
fn polynomial_facts(
    cfa: &Cfa,
    ps: &ProgramSystem,
    samples: &invariants::Samples,
    deadline: Instant,
    interrupter: &Interrupter,
    stats: &mut Stats,
    notes: &mut Vec<String>,
) -> Option<(
    crate::ts::model::Model,
    Vec<(crate::cfa::Loc, crate::engine::Conjunct)>,
)> {
    let start = Instant::now();
    let stop = || interrupter.is_interrupted() || Instant::now() >= deadline;
    let candidates = poly::discover::candidates(cfa, samples, &stop);
    stats.counter("polynomial candidates", candidates.len());
    if candidates.is_empty() {
        return None;
    }
    let proved = poly::prove::prove(cfa, ps, candidates, &stop);
    stats
        .counter("polynomial invariants proved", proved.invariants.len())
        .counter(
            "polynomial invariants: highest degree",
            proved
                .invariants
                .iter()
                .map(|(_, q)| q.degree())
                .max()
                .unwrap_or(0),
        )
        .counter("program equalities implied by them", proved.facts.len())
        .time("time in polynomial invariants", start.elapsed());
    if proved.stopped || proved.facts.is_empty() {
        return None;
    }
    let Some(model) = poly::prove::constrained(cfa, ps, &proved.facts) else {
        notes.push("internal error: the system constrained by polynomial invariants has other latches; not used".into());
        return None;
    };
    let tm = &ps.tm;
    let name = |t: TermId| match tm.as_var(t) {
        Some(v) => invariants::c_name(&tm.var_info(v).name),
        None => format!("t{}", t.index()),
    };
    let shown: Vec<String> = (proved.invariants.iter().take(4))
        .map(|(l, q)| format!("at L{}: {} == 0", l.index(), q.text(&name)))
        .collect();
    notes.push(format!(
        "{} program equalities follow from {} polynomial invariants proved modulo 2^w ({}{}); k-induction assumes them",
        proved.facts.len(),
        proved.invariants.len(),
        shown.join("; "),
        if proved.invariants.len() > 4 { "; ..." } else { "" }
    ));
    let name = |v: crate::bv::VarId| invariants::c_name(&tm.var_info(v).name);
    let in_c = (proved.facts.iter())
        .filter(|f| crate::bv::cprint::tree_size(tm, f.eq, MAX_FACT_TEXT) < MAX_FACT_TEXT)
        .map(|f| {
            let conjunct = crate::engine::Conjunct {
                text: crate::bv::cprint::c_expr(tm, f.eq, &name),
                vars: (tm.free_vars(f.eq).into_iter())
                    .map(|v| tm.var_info(v).name.clone())
                    .collect(),
            };
            (f.loc, conjunct)
        })
        .collect();
    Some((model, in_c))
}

/// The most nodes of a polynomial fact, as a tree, that its C text may have.
const MAX_FACT_TEXT: usize = 10_000;

/// `proved` with the polynomial `facts` added at their locations.
fn with_facts(
    mut proved: ProvedInvariants,
    facts: &[(crate::cfa::Loc, crate::engine::Conjunct)],
) -> ProvedInvariants {
    for (loc, c) in facts {
        match proved.iter_mut().find(|(l, _)| l == loc) {
            Some((_, here)) if !here.contains(c) => here.push(c.clone()),
            Some(_) => {}
            None => proved.push((*loc, vec![c.clone()])),
        }
    }
    proved.sort_by_key(|(l, _)| *l);
    proved
}

/// Verify a prepared CFA.
pub fn verify_cfa(cfa: &Cfa, opts: &VerifyOptions, progress: ProgressFn<'_>) -> VerifyResult {
    let mut out = VerifyResult {
        winner: None,
        invariant: None,
        proved_invariants: None,
        verdict: ProgramVerdict::Unknown(Unknown::incomplete("not run")),
        stats: Stats::new(),
        rewrites: Rewrites::default(),
        notes: Vec::new(),
    };
    let has_sinks = cfa
        .locations
        .iter()
        .any(|l| matches!(l.kind, LocKind::Sink(_)));
    let first = run_phase(
        cfa,
        if has_sinks { Goal::Any } else { Goal::Error },
        1,
        opts,
        progress,
        &mut out,
    );
    out.verdict = match first {
        Phase::Safe => ProgramVerdict::True,
        Phase::Unknown(r) => ProgramVerdict::Unknown(r),
        Phase::Violation(t) => ProgramVerdict::False(cfa.property, t),
        Phase::Sink(reason) => {
            out.notes.push(format!(
                "a sink is reachable ({reason}); checking the error location alone"
            ));
            // The second phase's UNKNOWN keeps its cause (an internal error stays one) and
            // says which sink came first.
            match run_phase(cfa, Goal::Error, 2, opts, progress, &mut out) {
                Phase::Violation(t) => ProgramVerdict::False(cfa.property, t),
                Phase::Safe => ProgramVerdict::Unknown(Unknown::incomplete(reason)),
                Phase::Unknown(r) => ProgramVerdict::Unknown(r.after(reason)),
                Phase::Sink(_) => ProgramVerdict::Unknown(
                    Unknown::internal("a sink reached under the error goal").after(reason),
                ),
            }
        }
    };
    if let ProgramVerdict::False(_, t) = &out.verdict {
        if opts.undefined_calls == UndefinedCalls::Unknown {
            if let Some(why) = undefined_dependence(cfa, t) {
                out.notes
                    .push(format!("counterexample not accepted: {why}"));
                out.verdict = ProgramVerdict::Unknown(Unknown::incomplete(why));
            }
        }
    }
    out
}

/// Why a counterexample depends on a function without a definition, if it does.
fn undefined_dependence(cfa: &Cfa, t: &ProgramTrace) -> Option<String> {
    if !cfa::taint::Taint::needed(cfa) {
        return None;
    }
    let accept = "--undefined-calls nondet accepts it";
    if !t.expanded {
        return Some(format!(
            "the counterexample calls a function without a definition and is too long to check whether it depends on it; {accept}"
        ));
    }
    let (_, depends) = interp::undefined_dependence(cfa, &t.nondet, ORIGINAL_REPLAY_STEPS);
    depends.map(|f| format!("the counterexample depends on the undefined function `{f}`; {accept}"))
}
