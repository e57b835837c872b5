//! IC3CFA: IC3 over the control-flow automaton, with a sequence of frames per location and
//! word-level cubes, after the IC3CFA thesis "Improving the IC3CFA generalisation" and the RWTH
//! paper on five improvements to its generalisation; here in pure incremental SAT.
//!
//! **Frames.** `F(i, l)` over-approximates the states at location `l` reachable within `i`
//! steps. `F(i, l_init)` is every state (every valuation at the initial location is initial:
//! the CFA writes each variable before reading it); `F(i, l)` is empty for `i` below `l`'s
//! distance from `l_init` in the graph (shortest-path initialisation). Above that, a
//! frame is a set of lemmas `¬cube` stored delta-encoded: a lemma at level `j` holds in every
//! `F(i, l)` with `i ≤ j`, each kept once at its highest level, and a new lemma removes those it
//! subsumes ([`Frames`](super::ic3::Frames), shared with PDR, with a place per location). A
//! lemma's literals are word-level atoms over program variables (`x < y`,
//! `s == 8464`, or their negations), bit-blasted once ([`solver::Circuit`]).
//!
//! **Relative induction** is form (1) only, for every edge `e = (l, cmd, l′)` into the
//! obligation's location: `F(i−1, l) ∧ T_e ∧ c′` (the self-loop form with `¬c` is not preserved
//! by merged generalisations). `T_e` is the edge's symbolic execution shared with the system
//! encoding ([`ProgramSystem::execs`]): its enabling condition (its guard, and no earlier edge's
//! at `l`, as the interpreter tries them in order) and `x′ = val_x` for every state variable,
//! unassigned ones included (`x′ = x`).
//!
//! **Obligations** `(l, c, i)` are sets of states at `l` that reach a target: the predecessor of
//! a failing query is the exact pre-image of `c` along the model's path with the model's
//! nondet values ([`wp`]). One reaching the initial location is therefore a counterexample; its
//! chain gives the nondet values of each step, which the system re-runs into a plan (checked by
//! the caller like every other). An obligation is blocked once every incoming edge passes, with
//! the union of the per-edge generalisations (each edge's generalisation keeps the literals the
//! earlier edges needed): the query's failed assumptions first, then literal dropping,
//! one query per literal (`genMic`), or Bradley and Manna's binary search for cubes above a
//! threshold (`genBinary`). Word-level atoms cannot say some lemmas (Jain1 needs
//! `y[0] == 1` where its cubes say `y == c`): when a generalised cube keeps an equality whose
//! term the location already excludes at other constants, its low bits are tried in its place
//! (the bit-level fallback, [`Ic3cfa::bit_fallback`]; terms compared as polynomials without
//! their constants, [`offsets`], since predecessors of a sum carry each step's constants).
//! Obligations wait in PDR's queue
//! ([`Queue`](super::ic3::Queue)), lowest level first and, within a level, the newest first
//! (a depth-first search toward the initial location). Blocked obligations can be retried one
//! level up within the round ([`Ic3cfaOptions::carry`], off by default).
//!
//! **Termination.** After each level, lemmas are pushed to the next level where every incoming
//! edge still refutes them (an option; the thesis has none, and a lemma then moves up only when
//! an obligation is blocked again there), a failed push not asked again while the state that
//! refuted it is still in its predecessor's frame ([`push`]). When a level `i` at or beyond
//! every location's distance has no lemma anywhere, `F(i) = F(i+1)` and the lemmas above `i`
//! are an inductive invariant per location. It is returned as a circuit over the system's
//! variables, `⋀_l (pc = l → Inv_l)`, which the caller re-checks on the bit-level system with
//! another backend; the per-location text says the same in C ([`crate::bv::cprint`]). An
//! experimental option stops after a number of stable rounds instead ([`stable`]), with a
//! frame nothing proved inductive: only that check makes its answer a verdict.
//!
//! **The algorithm** is the IC3 template's ([`ic3::run`](super::ic3::run)): its rounds,
//! blocking, propagation and MIC, with IC3CFA's part behind its hooks ([`hooks`]).
//!
//! **The papers' improvements**, each a switch of [`Ic3cfaOptions`] (measured on and off in
//! `docs/results/`): predecessor cubes and literals the edge assumes ([`pre`]), WP inductivity
//! (the query over the literals' preconditions, unsatisfiable answers remembered by syntax),
//! generalisation contexts as upper and lower bounds ([`context`]), obligation reuse and
//! skipping across rounds ([`block`]), and CTGs (`gen`). Each keeps every lemma relatively
//! inductive and every obligation a set of states that reaches a target, so none can change a
//! verdict, only the work to reach it.

mod block;
mod context;
mod evidence;
mod gen;
mod hooks;
mod offsets;
mod options;
mod pre;
mod push;
mod solver;
mod stable;
mod stats;
#[cfg(test)]
mod tests;
pub mod wp;

use super::ic3::{self, Frames, ObId, Queue};
use super::problem::{Engine, Problem};
use super::{Certificate, Options, ProgressFn, Stats, Unknown, Verdict};
use crate::aig::AigLit;
use crate::bv::Valuation;
use crate::bv::{TermId, TermManager};
use crate::cfa::symex;
use crate::cfa::{Cfa, Loc};
use crate::engine::Interrupted;
use crate::sat::Interrupter;
use crate::ts::program::ProgramSystem;
use context::Contexts;
pub use options::Ic3cfaOptions;
use solver::{Answer, Circuit, LocSolver};
use stats::Counters;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;
use wp::Splitter;

/// How many obligations are handled between two checks of the memory left.
const MEMORY_CHECK_EVERY: usize = 64;

/// The memory an IC3CFA run keeps free beyond [`crate::sat::memory::RESERVE`]: below it the run
/// stops with UNKNOWN (memory) instead of failing an allocation that would end the process.
const MEMORY_MARGIN: usize = 64 << 20;

/// A conjunction of `bool` terms over program variables (the current state), sorted.
pub type Cube = Vec<TermId>;

/// A proof obligation: states at `loc` that reach a target (its level is in the queue).
#[derive(Clone)]
struct Obligation {
    loc: Loc,
    cube: Cube,
    /// The obligation these states lead to, and the slots' values of the step there.
    next: Option<(ObId, Vec<u128>)>,
    /// Whether it was checked (not found excluded) in its round.
    handled: bool,
    /// The level it was last blocked at and the lemma's cube.
    blocked: Option<(usize, Cube)>,
}

/// The kind of a query, for the statistics.
#[derive(Clone, Copy)]
enum Kind {
    RelInd,
    Gen,
    Push,
}

/// An unsatisfiable WP-inductivity query: the highest level it was answered at, and the
/// preconditions in its core.
type WpAnswer = (usize, Vec<TermId>);

/// The literals the relative induction of a cube needed along each incoming edge of its
/// location, with whether they are the edge's generalisation already (a predecessor cube's).
type Cores = Vec<(usize, Cube, bool)>;

/// Relative induction along one edge.
enum Rel {
    /// It holds; the literals it needs (a query's failed assumptions, or the edge's final
    /// generalisation when `exact`: read off a predecessor cube).
    Holds(Cube, bool),
    /// It fails: the last query's model has a predecessor.
    Fails,
}

/// IC3CFA on one program (see the module doc).
struct Ic3cfa<'a> {
    cfa: &'a Cfa,
    ps: &'a ProgramSystem,
    opts: &'a Options,
    io: Ic3cfaOptions,
    tm: TermManager,
    circuit: Circuit,
    /// Each state variable's term and its next-state copy.
    prime: HashMap<TermId, TermId>,
    primed: HashMap<TermId, TermId>,
    /// Edge literals `T_e`, made on first use.
    trans: Vec<Option<AigLit>>,
    incoming: Vec<Vec<usize>>,
    /// The locations each location has an edge to, without repetitions.
    successors: Vec<Vec<Loc>>,
    /// Distance of each location from the initial one (`usize::MAX`: unreachable).
    dist: Vec<usize>,
    targets: Vec<Loc>,
    /// The lemmas, with one place per location.
    lemmas: Frames<TermId>,
    /// How many lemmas each location has gained (for the contexts' lower bounds).
    stamps: Vec<u64>,
    /// The syntactic view of each edge, made on first use.
    wps: Vec<Option<pre::EdgeWp>>,
    contexts: Contexts<TermId>,
    /// The obligations of the last round, for [`Ic3cfaOptions::reuse`].
    last_round: Option<Queue<Obligation>>,
    /// Per source location: unsatisfiable WP-inductivity queries by their syntax (preconditions and
    /// enabling condition): the highest level answered and the preconditions in the core.
    wp_answers: Vec<HashMap<Vec<TermId>, WpAnswer>>,
    /// Equalities read modulo added constants, for the bit-level fallback.
    offsets: offsets::Offsets,
    /// Whether a CTG is being blocked (CTGs do not nest).
    in_ctg: bool,
    solvers: Vec<Option<LocSolver>>,
    /// The level `i` with `F(i) = F(i+1)`, once found.
    fixpoint: Option<usize>,
    /// The failed pushes, for [`Ic3cfaOptions::push_filter`]: those of the propagation under
    /// way, and those of the last one that it has not offered again yet.
    filter: push::PushFilter,
    filter_before: push::PushFilter,
    /// The rounds' obligations, for [`Ic3cfaOptions::stable`].
    stability: stable::Stability,
    /// The level `j` whose frame `F(j)` was returned after stable rounds, if one was.
    stable_stop: Option<usize>,
    /// Tests only: query every push the filter leaves out, and panic if it would have held.
    #[cfg(test)]
    audit_filter: bool,
    /// Whether the run stopped because memory ran short.
    short_of_memory: bool,
    n: Counters,
}

impl<'a> Ic3cfa<'a> {
    fn new(cfa: &'a Cfa, ps: &'a ProgramSystem, opts: &'a Options, io: Ic3cfaOptions) -> Self {
        let mut tm = ps.tm.clone();
        let mut prime = HashMap::new();
        for (v, _) in &ps.state {
            let info = cfa.var(*v);
            let t = info.term;
            let sort = tm.sort(t);
            let p = tm.var(format!("{}'", info.name), sort);
            prime.insert(t, p);
        }
        let nl = cfa.locations.len();
        let mut incoming = vec![Vec::new(); nl];
        let mut out = vec![Vec::new(); nl];
        for (i, e) in cfa.edges.iter().enumerate() {
            incoming[e.to.index()].push(i);
            out[e.from.index()].push(e.to);
        }
        for succ in &mut out {
            succ.sort();
            succ.dedup();
        }
        let mut dist = vec![usize::MAX; nl];
        dist[cfa.init.index()] = 0;
        let mut queue = VecDeque::from([cfa.init]);
        while let Some(l) = queue.pop_front() {
            for &m in &out[l.index()] {
                if dist[m.index()] == usize::MAX {
                    dist[m.index()] = dist[l.index()] + 1;
                    queue.push_back(m);
                }
            }
        }
        let targets = (0..nl)
            .map(|l| Loc(l as u32))
            .filter(|&l| ps.is_goal(cfa, l) && dist[l.index()] != usize::MAX)
            .collect();
        Ic3cfa {
            cfa,
            ps,
            opts,
            tm,
            circuit: Circuit::new(),
            prime,
            primed: HashMap::new(),
            trans: vec![None; cfa.edges.len()],
            incoming,
            successors: out,
            dist,
            targets,
            lemmas: Frames::new(nl),
            stamps: vec![0; nl],
            wps: (0..cfa.edges.len()).map(|_| None).collect(),
            contexts: Contexts::new(io.contexts),
            last_round: None,
            wp_answers: vec![HashMap::new(); nl],
            offsets: Default::default(),
            in_ctg: false,
            solvers: (0..nl).map(|_| None).collect(),
            fixpoint: None,
            filter: Default::default(),
            filter_before: Default::default(),
            stability: Default::default(),
            stable_stop: None,
            #[cfg(test)]
            audit_filter: false,
            short_of_memory: false,
            n: Counters::default(),
            io,
        }
    }

    fn interrupter(&self) -> &Interrupter {
        &self.opts.interrupter
    }

    /// The literal of `T_e`.
    fn trans_lit(&mut self, e: usize) -> AigLit {
        if let Some(l) = self.trans[e] {
            return l;
        }
        let ex = &self.ps.execs[e];
        let mut parts = vec![self.ps.enabled[e]];
        for (v, _) in &self.ps.state {
            let t = self.cfa.var(*v).term;
            let val = symex::value(&self.cfa.vars, &ex.env, *v);
            parts.push(self.tm.eq(self.prime[&t], val));
        }
        let t = self.tm.and_all(parts);
        let l = self.circuit.lit(&self.tm, t);
        self.trans[e] = Some(l);
        l
    }

    /// The next-state copy of a cube literal.
    fn primed_lit(&mut self, t: TermId) -> AigLit {
        let p = match self.primed.get(&t) {
            Some(&p) => p,
            None => {
                let p = self.tm.substitute(t, &self.prime);
                self.primed.insert(t, p);
                p
            }
        };
        self.circuit.lit(&self.tm, p)
    }

    /// The solver of location `l`, made with the lemmas of its predecessors.
    fn solver(&mut self, l: Loc) -> &mut LocSolver {
        if self.solvers[l.index()].is_none() {
            let mut s = LocSolver::new(self.opts.backend, self.interrupter());
            let mut sources: Vec<Loc> = self.incoming[l.index()]
                .iter()
                .map(|&e| self.cfa.edges[e].from)
                .collect();
            sources.sort();
            sources.dedup();
            for from in sources {
                let lemmas: Vec<(usize, Cube)> = self
                    .lemmas
                    .from(from.index(), 0)
                    .map(|(j, c)| (j, c.to_vec()))
                    .collect();
                for (level, cube) in lemmas {
                    let lits: Vec<AigLit> = cube
                        .iter()
                        .map(|&t| self.circuit.lit(&self.tm, t))
                        .collect();
                    s.add_lemma(from, level, &lits, &self.circuit);
                }
            }
            self.solvers[l.index()] = Some(s);
        }
        self.solvers[l.index()].as_mut().expect("made above")
    }

    /// Relative induction of `cube` at `level` along edge `e`: `F(level−1, from) ∧ T_e ∧ cube′`.
    fn query(&mut self, e: usize, level: usize, cube: &[TermId], kind: Kind) -> Answer {
        let edge = &self.cfa.edges[e];
        let (from, to) = (edge.from, edge.to);
        let is_init = from == self.cfa.init;
        if !is_init && level - 1 < self.dist[from.index()] {
            // F(level−1, from) is empty.
            return Answer::Unsat(Vec::new());
        }
        if self.interrupter().is_interrupted() {
            return Answer::Interrupted;
        }
        let (gate, next, wp_key) = if self.io.wpind {
            // `F(level−1, from) ∧ enabled_e ∧ ⋀ wp_e(l)`, over the source's variables only.
            let wps: Vec<(TermId, TermId)> = cube.iter().map(|&t| (t, self.lit_wp(e, t))).collect();
            let mut key: Vec<TermId> = wps.iter().map(|&(_, w)| w).collect();
            key.push(self.ps.enabled[e]);
            key.sort();
            key.dedup();
            if let Some((at, core)) = self.wp_answers[from.index()].get(&key) {
                if *at >= level - 1 {
                    self.n.wp_cache_hits += 1;
                    let core: Cube = wps
                        .iter()
                        .filter(|(_, w)| core.binary_search(w).is_ok())
                        .map(|&(t, _)| t)
                        .collect();
                    return Answer::Unsat(core);
                }
            }
            let gate = self.circuit.lit(&self.tm, self.ps.enabled[e]);
            let next = wps
                .iter()
                .map(|&(t, w)| (t, self.circuit.lit(&self.tm, w)))
                .collect();
            (gate, next, Some((key, wps)))
        } else {
            let next = cube.iter().map(|&t| (t, self.primed_lit(t))).collect();
            (self.trans_lit(e), next, None)
        };
        match kind {
            Kind::RelInd => self.n.sat_relind += 1,
            Kind::Gen => self.n.sat_gen += 1,
            Kind::Push => self.n.sat_push += 1,
        }
        let start = Instant::now();
        self.solver(to);
        let s = self.solvers[to.index()].as_mut().expect("made above");
        let next: Vec<(TermId, AigLit)> = next;
        let a = s.query(&self.circuit, from, level - 1, !is_init, gate, &next);
        if let (Answer::Unsat(core), Some((key, wps))) = (&a, wp_key) {
            // An unsatisfiable query stays so at this level and below: frames only shrink.
            let mut core_wps: Vec<TermId> = wps
                .iter()
                .filter(|(t, _)| core.contains(t))
                .map(|&(_, w)| w)
                .collect();
            core_wps.sort();
            core_wps.dedup();
            match self.wp_answers[from.index()].entry(key) {
                Entry::Occupied(mut known) => {
                    if known.get().0 < level - 1 {
                        known.insert((level - 1, core_wps));
                    }
                }
                Entry::Vacant(v) => {
                    v.insert((level - 1, core_wps));
                }
            }
        }
        let took = start.elapsed();
        self.n.sat_time += took;
        if let Kind::RelInd = kind {
            self.n.relind_time += took;
        }
        a
    }

    /// Relative induction of `cube` along `e` at `level`: by a predecessor cube when
    /// [`Ic3cfaOptions::precubes`] is on and one is found, else by a query.
    fn relind(
        &mut self,
        e: usize,
        level: usize,
        cube: &[TermId],
        kind: Kind,
    ) -> Result<Rel, Interrupted> {
        if self.io.precubes && !matches!(kind, Kind::RelInd) {
            if let Some(g) = self.precube(e, level, cube) {
                self.n.precube_hits += 1;
                return Ok(Rel::Holds(g, true));
            }
        }
        match self.query(e, level, cube, kind) {
            Answer::Unsat(core) => Ok(Rel::Holds(core, false)),
            Answer::Sat => Ok(Rel::Fails),
            Answer::Interrupted => Err(Interrupted),
        }
    }

    /// Relative induction of `cube` at `loc` and `level` along every incoming edge: the cores
    /// of all, or the first edge along which it fails.
    fn edge_cores(
        &mut self,
        loc: Loc,
        level: usize,
        cube: &[TermId],
        kind: Kind,
    ) -> Result<Result<Cores, usize>, Interrupted> {
        let mut cores = Vec::new();
        for e in self.incoming[loc.index()].clone() {
            match self.relind(e, level, cube, kind)? {
                Rel::Holds(core, exact) => cores.push((e, core, exact)),
                Rel::Fails => return Ok(Err(e)),
            }
        }
        Ok(Ok(cores))
    }

    /// Whether `cube` passes along `e` at `level`, with the literals it needs.
    fn passes(
        &mut self,
        e: usize,
        level: usize,
        cube: &[TermId],
    ) -> Result<Option<Cube>, Interrupted> {
        Ok(match self.relind(e, level, cube, Kind::Gen)? {
            Rel::Holds(core, _) => Some(core),
            Rel::Fails => None,
        })
    }

    /// Whether a lemma at `level` or above already excludes `cube` at `loc`.
    fn excluded(&self, loc: Loc, level: usize, cube: &[TermId]) -> bool {
        level < self.dist[loc.index()] || self.lemmas.excludes(loc.index(), level, cube)
    }

    /// Adds lemma `¬cube` at `loc` and `level`, removing the lemmas it subsumes.
    fn add_lemma(&mut self, loc: Loc, level: usize, cube: Cube) {
        self.install(loc, level, &cube);
        self.lemmas.add(loc.index(), level, cube);
        self.stamps[loc.index()] += 1;
        self.n.lemmas += 1;
    }

    /// Gives lemma `¬cube` of `loc` at `level` to the solvers of `loc`'s successors.
    fn install(&mut self, loc: Loc, level: usize, cube: &[TermId]) {
        let lits: Vec<AigLit> = cube
            .iter()
            .map(|&t| self.circuit.lit(&self.tm, t))
            .collect();
        for &to in &self.successors[loc.index()] {
            if let Some(s) = self.solvers[to.index()].as_mut() {
                s.add_lemma(loc, level, &lits, &self.circuit);
            }
        }
    }

    /// The state variables' values at `e`'s source in the model of the last query of `e`'s
    /// target's solver (a variable the solver does not know reads 0).
    fn model_state(&self, e: usize) -> Vec<(TermId, u128)> {
        let to = self.cfa.edges[e].to;
        let s = self.solvers[to.index()].as_ref().expect("queried");
        let mut vars = Vec::with_capacity(self.ps.state.len());
        for (v, _) in &self.ps.state {
            let t = self.cfa.var(*v).term;
            let id = self.tm.as_var(t).expect("a variable");
            let bits = self.circuit.bl.var_bits(id).unwrap_or_default();
            vars.push((t, s.var_value(bits)));
        }
        vars
    }

    /// The predecessor of obligation `ob` along `e` from the model of the last query of `e`'s
    /// target's solver: its location, cube and the slots' values.
    fn predecessor(&mut self, e: usize, cube: &[TermId]) -> (Cube, Vec<u128>) {
        let to = self.cfa.edges[e].to;
        let vars: HashMap<TermId, u128> = self.model_state(e).into_iter().collect();
        let s = self.solvers[to.index()].as_ref().expect("queried");
        let mut slots = Vec::new();
        let mut fixed: HashMap<TermId, TermId> = HashMap::new();
        for slot in &self.ps.slots {
            let id = self.tm.as_var(slot.term).expect("a slot is a variable");
            let bits = self
                .circuit
                .bl
                .var_bits(id)
                .map(|b| b.to_vec())
                .unwrap_or_default();
            let x = s.var_value(&bits);
            slots.push(x);
            let c = self.tm.bv_const(x, slot.width);
            fixed.insert(slot.term, c);
        }
        // x ↦ val_x with the slots fixed.
        let values: Vec<(TermId, TermId)> = self
            .edge_wp(e)
            .after
            .iter()
            .map(|(&t, &v)| (t, v))
            .collect();
        let mut images = HashMap::new();
        let after: HashMap<TermId, TermId> = values
            .into_iter()
            .map(|(t, v)| (t, self.tm.substitute_cached(v, &fixed, &mut images)))
            .collect();
        let enabled = self.tm.substitute(self.ps.enabled[e], &fixed);
        let mut values = Valuation::of_terms(&self.tm, vars);
        let mut sp = Splitter::new(&mut values);
        sp.add(&mut self.tm, enabled, true);
        for &t in cube {
            let pre = self.tm.substitute(t, &after);
            sp.add(&mut self.tm, pre, true);
        }
        let pred = sp.finish();
        self.n.predecessors += 1;
        self.n.predecessor_literals += pred.len();
        (pred, slots)
    }

    fn run(&mut self, progress: ProgressFn<'_>, start: Instant) -> Result<Verdict, Interrupted> {
        ic3::run(&mut hooks::Run::new(self, progress, start))
    }

    /// SAFE with the invariant above `level`.
    fn safe(&mut self, level: usize) -> Verdict {
        match self.certificate(level) {
            Ok(c) => Verdict::Safe(Certificate::Circuit(Arc::new(c))),
            Err(e) => Verdict::Unknown(Unknown::incomplete(format!(
                "ic3cfa proved the program but cannot state its invariant: {e}"
            ))),
        }
    }
}

impl Engine for Ic3cfaOptions {
    fn run(
        &self,
        problem: &Problem<'_>,
        opts: &Options,
        progress: ProgressFn<'_>,
    ) -> (Verdict, Stats) {
        super::problem::on_program(problem, "ic3cfa", |p| {
            run(p.cfa, p.ps, opts, self.clone(), progress)
        })
    }
}

/// Runs IC3CFA on `cfa` and its system `ps`; a verdict is about `ps.sys` (a plan of it, or an
/// invariant over its variables), for the caller to check like any other engine's.
pub fn run(
    cfa: &Cfa,
    ps: &ProgramSystem,
    opts: &Options,
    io: Ic3cfaOptions,
    progress: ProgressFn<'_>,
) -> (Verdict, Stats) {
    let start = Instant::now();
    let mut e = Ic3cfa::new(cfa, ps, opts, io);
    let v = match e.run(progress, start) {
        Ok(v) => v,
        Err(Interrupted) if e.short_of_memory => Verdict::Unknown(Unknown::memory(
            "ic3cfa stopped: less than 64 MiB left for its solvers",
        )),
        Err(Interrupted) => super::stopped(opts),
    };
    let stats = e.stats();
    for s in std::mem::take(&mut e.solvers).into_iter().flatten() {
        s.retire();
    }
    (v, stats)
}
