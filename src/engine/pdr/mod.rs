//! PDR (IC3) on the bit-level [`System`].
//!
//! Frames `F_0 = I, F_1, …, F_k` are delta-encoded ([`ic3::Frames`](super::ic3::Frames) with
//! one place): a lemma (a clause `¬cube` over latches) is stored at the highest level `i` it
//! holds up to, so `F_j` is `U` plus every lemma of level `≥ j`. Each level has its own solver over `U(x) ∧ T(x, x') ∧ U(x')` with the lemmas of `F_j`
//! (the transition part switched on by an activation literal, so a goal state without a
//! successor is still found).
//!
//! The main loop blocks every goal state of `F_k` through a queue of proof obligations ordered
//! by level, then by distance to a goal ([`ic3::Queue`](super::ic3::Queue)); a predecessor found at level 0 is a counterexample of known depth, which bounded
//! model checking then turns into a concrete plan. Blocked cubes are generalised ([`mic`]:
//! literal dropping with counterexamples to generalisation, Hassan–Bradley–Somenzi, and
//! Bradley's `down` for obligations that come back) and pushed to the highest level where they
//! are inductive. After each new frame the lemmas are
//! propagated; a level left without lemmas is a syntactic fixpoint, and the lemmas above it form
//! an inductive invariant, returned as the certificate (and re-checked by the caller).
//!
//! Cubes range over the latches and the variables `I` mentions ([`System::simple_path_vars`]):
//! the other variables are chosen afresh in every state, and since neither `I` nor the next-state
//! side of `T` mentions them, states that agree on the cube variables have the same futures and
//! the same initial status.
//!
//! Predecessors are lifted by a SAT query (the part of the state that, with the inputs fixed,
//! forces the successor into the obligation and every constraint of `U` to hold) when the
//! system's structure allows it ([`System::lifting`]); otherwise obligations are full latch
//! states. The lifting solver holds `U`'s gate definitions only, not its constraints: a lifted
//! state that violated a constraint under the fixed inputs would have no such step, so the
//! query asks the constraints to be forced like the successor.
//!
//! The main loop, the blocking of obligations, propagation and literal dropping are the IC3
//! template's ([`ic3::run`], [`ic3::mic`]); what is PDR's is in [`hooks`] and [`mic`].
//!
//! Obligations blocked at the top frame are retried at the next one ([`PdrOptions::carry`]).
//! Propagation remembers, for each lemma that failed to move up, the predecessor that refuted
//! it; while no lemma that entered that frame since excludes this state, the query would be
//! satisfiable again and is skipped.

mod cone;
mod hooks;
mod mic;
mod options;
mod query;

pub use options::PdrOptions;

use super::ic3::cube::is_subset;
use super::ic3::{self, Frames};
use super::problem::SystemEngine;
use super::{bmc, Cause, Options, ProgressFn, Stats, Unknown, Verdict};
use crate::cnf::Cnf;
use crate::sat::{Lit, Var};
use crate::ts::{Lifting, System};
use query::{Interrupted, Load, PairSolver, RelInd, SatStats};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A conjunction of literals over latches, sorted.
pub type Cube = Vec<Lit>;

/// A state in `F_i ∧ ¬c` with a successor in `c`, found when the lemma `¬c` failed to propagate
/// from `level`; `since` is how many lemmas had entered `F_level` at that time.
struct PushWitness {
    state: Cube,
    level: usize,
    since: usize,
}

/// A proof obligation: latch states that reach a goal (its level and depth are in the queue).
#[derive(Clone)]
struct Obligation {
    cube: Cube,
    /// How often this cube was blocked before (at lower levels, or in earlier frames).
    blocked: usize,
}

/// A running PDR instance.
pub(crate) struct Pdr<'s> {
    sys: &'s System,
    opts: PdrOptions,
    latches: Vec<Var>,
    lifting: Option<Lifting>,
    /// `init_unit[v]`: the value `I` fixes for latch `v` by a unit clause.
    init_unit: Vec<Option<bool>>,
    frames: Frames<Lit>,
    /// Every lemma added, in order; `strengthened[j]` lists (by position in `lemma_store`) the
    /// lemmas that entered `F_j`, in order (for [`Pdr::witness_stands`]).
    lemma_store: Vec<Cube>,
    strengthened: Vec<Vec<usize>>,
    /// For lemmas that failed to propagate: the state that made the query satisfiable.
    push_witness: HashMap<Cube, PushWitness>,
    pushes_skipped: u64,
    /// Obligations blocked at the top level, with their steps to a goal, for the next frame.
    carried: Vec<(Obligation, usize)>,
    solvers: Vec<PairSolver>,
    init: PairSolver,
    lifter: Option<PairSolver>,
    /// How the solvers hold `T` and `U`.
    load: Load,
    pub(crate) sat: SatStats,
    lemmas: usize,
    ctgs: usize,
    /// Counterexamples to propagation blocked ([`PdrOptions::ctp`]).
    ctps: usize,
    obligations: usize,
    time_block: Duration,
    /// How often each variable occurs in recent lemmas.
    activity: Vec<f64>,
    lemmas_since_decay: usize,
    recycled: usize,
    time_generalize: Duration,
    time_propagate: Duration,
    /// Relative-induction queries (blocking, generalisation, propagation) and their time.
    relind_queries: u64,
    time_relind: Duration,
    generalisations: u64,
    /// Whether the current generalisation may go down ([`PdrOptions::dynamic`]).
    may_go_down: bool,
    down_generalisations: u64,
    backend_opts: Options,
}

impl<'s> Pdr<'s> {
    fn new(sys: &'s System, opts: &Options, popts: PdrOptions) -> Pdr<'s> {
        let (backend, intr) = (opts.backend, &opts.interrupter);
        let mut init_unit = vec![None; sys.n()];
        for c in sys.init.iter() {
            if let [l] = c {
                init_unit[l.var().index()] = Some(!l.is_negated());
            }
        }
        let load = match cone::ConeIndex::new(sys).filter(|_| popts.cones) {
            Some(index) => Load::OnDemand(std::sync::Arc::new(index)),
            None => Load::Whole,
        };
        let lifting = sys.lifting.clone().filter(|_| popts.lift);
        let lifter = lifting
            .as_ref()
            .and_then(|_| PairSolver::lifter(sys, backend, intr, &load));
        Pdr {
            sys,
            latches: sys.simple_path_vars(),
            lifter,
            lifting,
            opts: popts,
            init_unit,
            frames: Frames::new(1),
            carried: Vec::new(),
            lemma_store: Vec::new(),
            strengthened: vec![Vec::new(), Vec::new()],
            push_witness: HashMap::new(),
            pushes_skipped: 0,
            solvers: vec![
                PairSolver::new(sys, backend, intr, true, &load),
                PairSolver::new(sys, backend, intr, false, &load),
            ],
            init: PairSolver::init_only(sys, backend, intr, &load),
            load,
            sat: SatStats::default(),
            lemmas: 0,
            ctgs: 0,
            ctps: 0,
            obligations: 0,
            time_block: Duration::ZERO,
            activity: vec![0.0; sys.n()],
            lemmas_since_decay: 0,
            recycled: 0,
            time_generalize: Duration::ZERO,
            relind_queries: 0,
            time_relind: Duration::ZERO,
            generalisations: 0,
            may_go_down: true,
            down_generalisations: 0,
            time_propagate: Duration::ZERO,
            backend_opts: opts.clone(),
        }
    }

    /// The highest frame index.
    fn k(&self) -> usize {
        self.solvers.len() - 1
    }

    fn intersects_init(&mut self, cube: &[Lit]) -> Result<bool, Interrupted> {
        if cube
            .iter()
            .any(|l| self.init_unit[l.var().index()] == Some(l.is_negated()))
        {
            return Ok(false);
        }
        self.init.intersects(cube, &mut self.sat)
    }

    fn relind(&mut self, cube: &[Lit], level: usize) -> Result<RelInd, Interrupted> {
        let t = Instant::now();
        if self.is_worn(&self.solvers[level]) {
            self.recycle(level);
        }
        let r = self.solvers[level].relind(cube, &self.latches, true, &mut self.sat);
        self.relind_queries += 1;
        self.time_relind += t.elapsed();
        r
    }

    /// A new frame solver (with `I` for level 0).
    fn frame_solver(&self, with_init: bool) -> PairSolver {
        let o = &self.backend_opts;
        PairSolver::new(self.sys, o.backend, &o.interrupter, with_init, &self.load)
    }

    /// Whether a solver holds enough temporary clauses to be rebuilt ([`PdrOptions::recycle`]).
    fn is_worn(&self, s: &PairSolver) -> bool {
        self.opts.recycle > 0 && s.retired() >= self.opts.recycle
    }

    /// Rebuild the solver of `level` from the system and the frame's lemmas, dropping the
    /// temporary clauses it accumulated.
    fn recycle(&mut self, level: usize) {
        let mut s = self.frame_solver(level == 0);
        if level > 0 {
            for (_, cube) in self.frames.from(0, level) {
                s.add_lemma(cube);
            }
        }
        self.solvers[level] = s;
        self.recycled += 1;
    }

    /// Raise the activity of the literals of a new lemma (used to order literal dropping).
    fn bump(&mut self, cube: &[Lit]) {
        for l in cube {
            self.activity[l.var().index()] += 1.0;
        }
        self.lemmas_since_decay += 1;
        if self.lemmas_since_decay >= 1000 {
            self.lemmas_since_decay = 0;
            for a in &mut self.activity {
                *a *= 0.5;
            }
        }
    }

    /// A cube excluding the initial states: the core if it does; else the core with one literal
    /// of `cube` that an initial unit contradicts (Bradley's repair, which keeps the cube
    /// small); else the original cube.
    fn core_or(&mut self, mut core: Cube, cube: &[Lit]) -> Result<Cube, Interrupted> {
        if core.len() == cube.len() || !self.intersects_init(&core)? {
            return Ok(core);
        }
        let blocking = cube
            .iter()
            .find(|l| self.init_unit[l.var().index()] == Some(l.is_negated()));
        match blocking {
            Some(&l) => {
                let pos = core.binary_search(&l).unwrap_err();
                core.insert(pos, l);
                Ok(core)
            }
            None => Ok(cube.to_vec()),
        }
    }

    /// Add the lemma `¬cube` at `level`, dropping the lemmas of lower or equal levels it
    /// subsumes; `from` is the lowest level whose solver does not have it yet.
    fn add_lemma(&mut self, cube: Cube, level: usize, from: usize) {
        for j in from.max(1)..=level.min(self.k()) {
            self.solvers[j].add_lemma(&cube);
        }
        self.bump(&cube);
        let id = self.lemma_store.len();
        for j in from.max(1)..=level {
            self.strengthened[j].push(id);
        }
        self.lemma_store.push(cube.clone());
        self.frames.add(0, level, cube);
        self.lemmas += 1;
    }

    /// Whether the witness that a lemma of `level` could not be pushed is still a model of that
    /// query: no lemma that entered `F_level` since excludes its state. The query is then
    /// satisfiable again (the transition relation and the constraints have not changed).
    fn witness_stands(&self, w: &PushWitness, level: usize) -> bool {
        self.strengthened[level][w.since..]
            .iter()
            .all(|&id| !is_subset(&self.lemma_store[id], &w.state))
    }

    /// Push a cube inductive relative to `F_{level-1}` as high as it goes, and add it.
    /// Returns the level it was added at.
    fn push_and_add(&mut self, cube: Cube, mut level: usize) -> Result<usize, Interrupted> {
        while level < self.k() {
            match self.relind(&cube, level)? {
                RelInd::Holds(_) => level += 1,
                RelInd::Pred(..) => break,
            }
        }
        self.add_lemma(cube, level, 1);
        Ok(level)
    }

    /// Whether a lemma of level `≥ level` already excludes `cube`.
    fn is_blocked(&self, cube: &[Lit], level: usize) -> bool {
        self.frames.excludes(0, level, cube)
    }

    /// The latch cube of a state, lifted toward `target` (or the goal) when possible.
    fn state_cube(&mut self, vals: &[bool], target: Option<&[Lit]>) -> Result<Cube, Interrupted> {
        let full: Cube = self
            .latches
            .iter()
            .map(|&v| Lit::new(v, !vals[v.index()]))
            .collect();
        if self.lifter.as_ref().is_some_and(|l| self.is_worn(l)) {
            let o = &self.backend_opts;
            self.lifter = PairSolver::lifter(self.sys, o.backend, &o.interrupter, &self.load);
            self.recycled += 1;
        }
        match (&mut self.lifter, &self.lifting) {
            (Some(lifter), Some(lifting)) => {
                lifter.lift(self.sys, &full, lifting, vals, target, &mut self.sat)
            }
            _ => Ok(full),
        }
    }

    fn invariant(&self, above: usize) -> Cnf {
        let mut inv = Cnf::new();
        inv.reserve_vars(self.sys.num_vars);
        for (_, cube) in self.frames.from(0, above) {
            let clause: Vec<Lit> = cube.iter().map(|&l| !l).collect();
            inv.push(&clause);
        }
        inv
    }

    fn run(&mut self, progress: ProgressFn<'_>, start: Instant) -> Result<Verdict, Interrupted> {
        ic3::run(&mut hooks::Run::new(self, progress, start))
    }

    /// Is an initial state a goal state?
    fn init_goal(&mut self) -> Result<bool, Interrupted> {
        Ok(self.init.bad_state(self.sys, &mut self.sat)?.is_some())
    }

    fn counterexample(&self, depth: usize) -> Verdict {
        let opts = Options {
            max_depth: Some(depth),
            ..self.backend_opts.clone()
        };
        match bmc::run(self.sys, &opts, &mut |_| {}).0 {
            v @ Verdict::Unsafe(_) => v,
            Verdict::Unknown(r) if r.cause != Cause::Bound => Verdict::Unknown(r),
            _ => Verdict::Unknown(Unknown::internal(format!(
                "PDR found a counterexample of depth {depth} that BMC does not confirm"
            ))),
        }
    }

    fn stats(&self) -> Stats {
        let mut s = Stats::new();
        let lemma_literals: usize = self.lemma_store.iter().map(|c| c.len()).sum();
        let solver_vars: f64 = self.solvers.iter().map(|s| s.num_vars() as f64).sum();
        s.counter("frames", self.k())
            .counter("lemmas", self.lemmas)
            .counter("lemmas in the last frames", self.frames.len())
            .counter("proof obligations", self.obligations)
            .counter("CTGs blocked", self.ctgs)
            .counter("CTPs blocked", self.ctps)
            .counter(
                "propagation queries skipped (witness still valid)",
                self.pushes_skipped,
            )
            .counter("solvers rebuilt", self.recycled)
            .mean(
                "mean lemma size (literals)",
                lemma_literals as f64,
                self.lemma_store.len().max(1),
                1,
            )
            .mean(
                "variables per frame solver (mean)",
                solver_vars,
                self.solvers.len().max(1),
                0,
            )
            .counter("SAT calls", self.sat.calls)
            .real(
                "SAT calls per second of SAT time",
                self.sat.calls as f64 / self.sat.time.as_secs_f64().max(1e-9),
                0,
            )
            .text(
                "transition relation in the solvers",
                match &self.load {
                    Load::Whole => "whole",
                    Load::OnDemand(_) => "cones loaded on demand",
                },
            )
            .counter("relative-induction queries", self.relind_queries)
            .time("time in relative induction", self.time_relind)
            .counter("generalisations", self.generalisations)
            .counter(
                "generalisations allowed to go down",
                self.down_generalisations,
            )
            .time("time in SAT", self.sat.time)
            .time("time blocking", self.time_block)
            .time("time generalising", self.time_generalize)
            .time("time propagating", self.time_propagate);
        s
    }
}

/// The frames of a PDR run: its top level and its lemmas with the levels they are stored at.
///
/// They can start a run on a system over the same latches whose transitions and constraints
/// are a subset of the first one's (an abstraction after refinement): a lemma of level `j`
/// holds in every state reachable within `j` steps of the first system, so within `j` steps of
/// the second too, and the frames' consecution `F_j ∧ T ⇒ F_{j+1}'` holds for fewer
/// transitions as it did for more. Only all of them together keep that property: a frame
/// without one of its lemmas may not imply the next.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    pub k: usize,
    pub lemmas: Vec<(usize, Cube)>,
}

impl Pdr<'_> {
    /// Starts from kept frames: a solver for each level up to their top, holding its lemmas.
    fn resume(&mut self, kept: Kept) {
        while self.k() < kept.k {
            let s = self.frame_solver(false);
            self.solvers.push(s);
            self.strengthened.push(Vec::new());
        }
        for (level, mut cube) in kept.lemmas {
            cube.sort();
            self.add_lemma(cube, level.min(kept.k), 1);
        }
        self.lemmas = 0;
    }

    /// The frames as they stand.
    fn kept(&self) -> Kept {
        Kept {
            k: self.k(),
            lemmas: (self.frames.from(0, 1))
                .map(|(j, c)| (j, c.to_vec()))
                .collect(),
        }
    }
}

impl PdrOptions {
    /// Runs PDR with these options, starting from `kept` frames (see [`Kept`] for when they
    /// are valid); returns the frames it ended with too.
    pub fn run_resumed(
        &self,
        sys: &System,
        opts: &Options,
        progress: ProgressFn<'_>,
        kept: Option<Kept>,
    ) -> (Verdict, Stats, Kept) {
        let popts = self.clone();
        let start = Instant::now();
        let mut pdr = Pdr::new(sys, opts, popts);
        let resumed = kept.map_or(0, |kept| {
            let n = kept.lemmas.len();
            pdr.resume(kept);
            n
        });
        let v = pdr
            .run(progress, start)
            .unwrap_or_else(|Interrupted| super::stopped(opts));
        let mut stats = pdr.stats();
        if resumed > 0 {
            stats.counter("lemmas kept from an earlier run", resumed);
        }
        let kept = pdr.kept();
        super::graveyard::keep(std::mem::take(&mut pdr.solvers));
        super::graveyard::keep(std::mem::replace(&mut pdr.frames, Frames::new(1)));
        super::graveyard::keep(pdr.lifter.take());
        (v, stats, kept)
    }
}

impl SystemEngine for PdrOptions {
    /// Runs PDR with these options.
    fn run_on(&self, sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
        let (v, stats, _) = self.run_resumed(sys, opts, progress, None);
        (v, stats)
    }
}

/// Run PDR with default options.
pub fn run(sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
    PdrOptions::default().run_on(sys, opts, progress)
}
