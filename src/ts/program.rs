//! From a CFA to a transition system, and from a path of that system back to a nondet sequence
//! for the CFA interpreter.
//!
//! Encoding decisions:
//! - **Steps.** One transition is one CFA edge (after large-block encoding, a loop-free block).
//!   An edge `e` is *taken* when the program counter is at its source and its guard holds;
//!   the edges leaving a location are tried in order and the first that can be taken is (an
//!   `ite` chain), exactly as the interpreter does. When none can be taken (a failed assume,
//!   the exit, the error location, a sink) the program counter moves to an extra absorbing code
//!   `DONE` and the variables keep their values, so `T` is total and functional.
//! - **Program counter.** Binary by default: location `l` has code `l`, `DONE` the next code,
//!   in `⌈log2(#locations + 1)⌉` bits (0-based codes); `U` excludes the unused codes
//!   above `DONE`. One-hot as an option: one latch per location and one for `DONE`.
//! - **No `pred` variable**: the CFA has no phi nodes. Each edge is symbolically
//!   executed ([`crate::cfa::symex`]): an assignment substitutes, `Seq` composes, `Choice`
//!   takes the first alternative that completes (merged with `ite` in that priority), and the
//!   `k`-th `Havoc` on a path reads **input slot `k`** truncated to its variable's width. The
//!   slots are the nondet values of one step, shared by every edge and alternative (as the
//!   interpreter tries them all from the same position), each as wide as the widest variable
//!   havocked at its position. Unassigned variables keep their values (`same` is
//!   explicit).
//! - **Guards within an edge** are conjoined in instruction order by the symbolic
//!   execution, so checks in one block are mutually exclusive by construction.
//! - **State variables**: globals are ordinary state. A program variable is state
//!   only if some guard depends on it, directly or through the next-state functions of other
//!   state variables (a cone of influence of the control flow); everything else is dropped.
//!   Values read only after being written within the same edge are expanded inline.
//! - **Initial state.** The program counter is at the initial location; program variables
//!   start at 0, since the CFA writes every variable before reading it (a declaration without
//!   an initialiser is a havoc); one that some path may read first stays uninitialised
//!   ([`circuit`]).
//! - **Overflow checks** are edges of the CFA to the error location (built by the front end
//!   from sign bits and double-width products); `main`'s return value is not checked.
//! - **Bad states**: the program counter at the error location, or (as a separate goal) at an
//!   UNKNOWN sink; [`Goal`] selects which.
//!
//! A path of the system gives the slots' values of every step, which replay exactly on the
//! interpreter ([`crate::cfa::interp::Nondet::PerStep`]); the values that replay consumed, in
//! order, are the nondet sequence that a compiled program's nondet calls return
//! ([`ProgramSystem::replay`]).

mod circuit;

pub use circuit::{Blasted, Layout};

use super::model::{Model, ModelSystem, Original, Words};
use super::{Plan, System};
use crate::bv::{Evaluator, Sort, TermId, TermManager};
use crate::cfa::interp::{self, Nondet, Outcome, RunOptions, Step};
use crate::cfa::symex::{self, Env, Exec};
use crate::cfa::{Cfa, EdgeId, Loc, LocKind, PVar};
use crate::sat::Var;
use std::collections::{HashMap, HashSet};

/// How the program counter is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PcEncoding {
    #[default]
    Binary,
    OneHot,
}

/// Which locations are bad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The error location (a violation of the property).
    Error,
    /// The UNKNOWN sinks.
    Sink,
    /// Either.
    Any,
}

impl Goal {
    /// Whether locations of this kind are bad.
    pub fn includes(self, kind: &LocKind) -> bool {
        matches!(
            (kind, self),
            (LocKind::Error, Goal::Error | Goal::Any) | (LocKind::Sink(_), Goal::Sink | Goal::Any)
        )
    }
}

/// An input slot: the nondet value at one position of a step (see [`crate::cfa::symex`]).
/// The `k`-th havoc executed in a step, on whichever edge and alternative, reads slot `k`
/// truncated to its variable's width; a slot is as wide as the widest such variable.
#[derive(Clone, Debug)]
pub struct Slot {
    /// The input variable of the word-level system.
    pub term: TermId,
    pub width: u32,
    /// The model input of each bit (LSB first).
    pub inputs: Vec<usize>,
}

/// A path of a program's system replayed on the interpreter ([`ProgramSystem::replay`]).
#[derive(Clone, Debug)]
pub struct Replay {
    /// How the run with the slots of every step ended, and its steps.
    pub outcome: Outcome,
    pub steps: Vec<Step>,
    /// The values those steps consumed, in order.
    pub nondet: Vec<u128>,
    /// How the run with `nondet` as one sequence ended: the same as `outcome` when the CFA is
    /// deterministic (an edge that fails does not depend on values beyond those the taken one
    /// consumes).
    pub sequence_outcome: Outcome,
    /// The values of the input slots of every step, as decoded from the plan.
    pub slots: Vec<Vec<u128>>,
}

/// A CFA encoded as a transition system.
pub struct ProgramSystem {
    /// The CFA's terms extended with the program counter and the inputs.
    pub tm: TermManager,
    pub model: Model,
    pub sys: System,
    pub latch_var: Vec<Option<Var>>,
    pub input_var: Vec<Option<Var>>,
    /// The state program variables with the model latch of each bit.
    pub state: Vec<(PVar, Vec<usize>)>,
    /// The number of locations of the CFA (`DONE` is the next code).
    pub locations: usize,
    /// The program counter: its term (binary) and the model latches of its bits, or one
    /// `bool` term and latch per location then one for `DONE` (one-hot).
    pub pc_terms: Vec<TermId>,
    pub pc_latches: Vec<usize>,
    pub pc: PcEncoding,
    /// Which locations are bad.
    pub goal: Goal,
    /// When each edge is taken (over state and inputs).
    pub taken: Vec<TermId>,
    /// When each edge is taken once the program counter is at its source: its guard, and no
    /// earlier edge's there (over program variables and slots).
    pub enabled: Vec<TermId>,
    /// The symbolic execution of each edge, its havocs reading the slots: the one reading of
    /// an edge that the system, IC3CFA's transition relations and its weakest preconditions
    /// share.
    pub execs: Vec<Exec>,
    /// The input slots, by position.
    pub slots: Vec<Slot>,
    /// The system before bit-blasting.
    pub word_level: WordLevel,
}

/// The system at word level, over `ProgramSystem::tm`, before bit-blasting (what the BTOR2
/// export writes, [`super::btor2`]): the state is the program counter's terms
/// (`ProgramSystem::pc_terms`, reset to the initial location) and the state variables'
/// terms (`ProgramSystem::state`, uninitialised here; the blasted system starts them at 0,
/// [`circuit`]); the inputs are the slots.
#[derive(Clone, Debug)]
pub struct WordLevel {
    /// The next-state term of each program-counter term, in order.
    pub pc_next: Vec<TermId>,
    /// The next-state term of each state variable, in order.
    pub next: Vec<TermId>,
    /// The constraint that the binary program counter holds no code above `DONE` (none when
    /// every code is used, or the counter is one-hot).
    pub pc_range: Option<TermId>,
    /// The bad states.
    pub bad: TermId,
}

/// Options of the encoding.
#[derive(Clone, Copy, Debug)]
pub struct EncodeOptions {
    pub pc: PcEncoding,
    pub goal: Goal,
}

fn bits_needed(max: u128) -> u32 {
    (128 - max.leading_zeros()).max(1)
}

/// Encode a CFA as a transition system.
pub fn encode(cfa: &Cfa, opts: EncodeOptions) -> ProgramSystem {
    let mut terms = cfa.tm.clone();
    let tm = &mut terms;
    let nl = cfa.locations.len();
    let (slot_terms, edges) = execute_edges(cfa, tm);
    let state = state_variables(cfa, tm, &edges);
    let (pc_terms, at) = program_counter(tm, opts.pc, nl);
    let (taken, enabled) = taken_edges(cfa, tm, &edges, &at);
    let any_taken = tm.or_all(taken.iter().copied());
    let next_vars = next_state(cfa, tm, &state, &edges, &taken);
    let (pc_next, pc_range) = match opts.pc {
        PcEncoding::Binary => {
            let (next, range) = binary_pc_next(cfa, tm, pc_terms[0], &taken);
            (vec![next], range)
        }
        PcEncoding::OneHot => (one_hot_pc_next(cfa, tm, &taken, any_taken), None),
    };
    let bad_locs: Vec<TermId> = (cfa.locations.iter().enumerate())
        .filter(|(_, info)| opts.goal.includes(&info.kind))
        .map(|(l, _)| at[l])
        .collect();
    let bad = tm.or_all(bad_locs);
    let word_level = WordLevel {
        pc_next,
        next: next_vars.iter().map(|&(_, t)| t).collect(),
        pc_range,
        bad,
    };
    let state_vars: Vec<PVar> = next_vars.iter().map(|&(v, _)| v).collect();
    let layout = Layout {
        cfa,
        pc: opts.pc,
        pc_terms: &pc_terms,
        state: &state_vars,
        slots: &slot_terms,
    };
    let Blasted {
        model,
        pc_latches,
        state: state_bits,
        slots,
        extra: _,
    } = layout.blast(tm, &word_level, &[], &[]);
    let ModelSystem {
        sys,
        latch_var,
        input_var,
    } = model.to_system();
    ProgramSystem {
        tm: terms,
        model,
        sys,
        latch_var,
        input_var,
        state: state_bits,
        locations: nl,
        pc_terms,
        pc_latches,
        pc: opts.pc,
        goal: opts.goal,
        taken,
        enabled,
        execs: edges,
        slots,
        word_level,
    }
}

/// The input slots (each as wide as the widest variable havocked at its position) and the
/// symbolic execution of every edge, whose `k`-th havoc reads slot `k`.
fn execute_edges(cfa: &Cfa, tm: &mut TermManager) -> (Vec<TermId>, Vec<Exec>) {
    let mut widths = Vec::new();
    for e in &cfa.edges {
        symex::havoc_widths(&cfa.vars, &e.cmd, &mut widths);
    }
    let slot_terms: Vec<TermId> = widths
        .iter()
        .enumerate()
        .map(|(k, &w)| tm.var(format!("nondet[{k}]"), Sort::Bv(w.max(1))))
        .collect();
    let mut havoc = |tm: &mut TermManager, v: PVar, k: usize| {
        let w = cfa.vars[v.index()].ty.width;
        let slot = slot_terms[k];
        if tm.width(slot) == w {
            slot
        } else {
            tm.extract(slot, w - 1, 0)
        }
    };
    let edges: Vec<Exec> = cfa
        .edges
        .iter()
        .map(|e| symex::exec(&cfa.vars, tm, &e.cmd, Env::new(), &mut havoc))
        .collect();
    (slot_terms, edges)
}

/// The state variables, sorted: the cone of influence of the guards.
fn state_variables(cfa: &Cfa, tm: &TermManager, edges: &[Exec]) -> Vec<PVar> {
    let var_of: HashMap<TermId, PVar> = cfa
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.term, PVar(i as u32)))
        .collect();
    let mut state: HashSet<PVar> = HashSet::new();
    let mut pending: Vec<TermId> = edges.iter().map(|x| x.guard).collect();
    while let Some(t) = pending.pop() {
        for vid in tm.free_vars(t) {
            let term = tm.var_info(vid).term;
            if let Some(&v) = var_of.get(&term) {
                if state.insert(v) {
                    pending.extend(edges.iter().filter_map(|x| x.env.get(&v).copied()));
                }
            }
        }
    }
    let mut state: Vec<PVar> = state.into_iter().collect();
    state.sort();
    state
}

/// The program counter's terms (one word, or one `bool` per location and `DONE`) and, per
/// location and then `DONE`, the condition that it is there.
fn program_counter(tm: &mut TermManager, pc: PcEncoding, nl: usize) -> (Vec<TermId>, Vec<TermId>) {
    match pc {
        PcEncoding::Binary => {
            let w = bits_needed(nl as u128);
            let pc = tm.var("pc", Sort::Bv(w));
            let at = (0..=nl).map(|l| {
                let c = tm.bv_const(l as u128, w);
                tm.eq(pc, c)
            });
            let at: Vec<TermId> = at.collect();
            (vec![pc], at)
        }
        PcEncoding::OneHot => {
            let at: Vec<TermId> = (0..=nl)
                .map(|l| {
                    let name = if l == nl {
                        "pc:done".to_string()
                    } else {
                        format!("pc:L{l}")
                    };
                    tm.var(name, Sort::Bool)
                })
                .collect();
            (at.clone(), at)
        }
    }
}

/// When each edge is taken (at its source, its guard, no earlier edge's there: the
/// interpreter's order), and when it is enabled once the program counter is at its source.
fn taken_edges(
    cfa: &Cfa,
    tm: &mut TermManager,
    edges: &[Exec],
    at: &[TermId],
) -> (Vec<TermId>, Vec<TermId>) {
    let mut taken = vec![tm.fals(); cfa.edges.len()];
    let mut enabled = vec![tm.fals(); cfa.edges.len()];
    for out in cfa.out_edges() {
        let mut earlier = tm.fals();
        for e in out {
            let x = &edges[e.index()];
            let from = at[cfa.edges[e.index()].from.index()];
            let can = tm.and(from, x.guard);
            let ne = tm.not(earlier);
            taken[e.index()] = tm.and(can, ne);
            enabled[e.index()] = tm.and(x.guard, ne);
            earlier = tm.or(earlier, x.guard);
        }
    }
    (taken, enabled)
}

/// The next-state function of each state variable: its value after the edge taken.
fn next_state(
    cfa: &Cfa,
    tm: &mut TermManager,
    state: &[PVar],
    edges: &[Exec],
    taken: &[TermId],
) -> Vec<(PVar, TermId)> {
    let mut next_vars = Vec::with_capacity(state.len());
    for &v in state {
        let mut x = cfa.vars[v.index()].term;
        for (i, ex) in edges.iter().enumerate().rev() {
            if let Some(&val) = ex.env.get(&v) {
                x = tm.ite(taken[i], val, x);
            }
        }
        next_vars.push((v, x));
    }
    next_vars
}

/// The binary program counter's next-state term, and the constraint that excludes the codes
/// above `DONE` (none when every code is used).
fn binary_pc_next(
    cfa: &Cfa,
    tm: &mut TermManager,
    pc: TermId,
    taken: &[TermId],
) -> (TermId, Option<TermId>) {
    let done = cfa.locations.len() as u128;
    let w = tm.width(pc);
    let mut nxt = tm.bv_const(done, w);
    for (i, e) in cfa.edges.iter().enumerate().rev() {
        let c = tm.bv_const(e.to.index() as u128, w);
        nxt = tm.ite(taken[i], c, nxt);
    }
    let mut range = None;
    if (1u128 << w) - 1 > done {
        let max = tm.bv_const(done, w);
        range = Some(tm.ule(pc, max));
    }
    (nxt, range)
}

/// The next-state terms of the one-hot program counter (one per location, then `DONE`, which
/// is entered when no edge is taken).
fn one_hot_pc_next(
    cfa: &Cfa,
    tm: &mut TermManager,
    taken: &[TermId],
    any_taken: TermId,
) -> Vec<TermId> {
    let nl = cfa.locations.len();
    (0..=nl)
        .map(|l| {
            if l == nl {
                tm.not(any_taken)
            } else {
                let ins: Vec<TermId> = (0..cfa.edges.len())
                    .filter(|&i| cfa.edges[i].to.index() == l)
                    .map(|i| taken[i])
                    .collect();
                tm.or_all(ins)
            }
        })
        .collect()
}

impl ProgramSystem {
    /// Blasts `wl`, a word-level system over this system's state (in `tm`, which extends
    /// [`ProgramSystem::tm`]), with `extra_inputs` and `constraints`, as
    /// [`Layout::blast`] does: the latches and inputs are this system's, in the same order.
    pub fn blast(
        &self,
        cfa: &Cfa,
        tm: &TermManager,
        wl: &WordLevel,
        extra_inputs: &[TermId],
        constraints: &[TermId],
    ) -> Blasted {
        let state: Vec<PVar> = self.state.iter().map(|&(v, _)| v).collect();
        let slots: Vec<TermId> = self.slots.iter().map(|s| s.term).collect();
        let layout = Layout {
            cfa,
            pc: self.pc,
            pc_terms: &self.pc_terms,
            state: &state,
            slots: &slots,
        };
        layout.blast(tm, wl, extra_inputs, constraints)
    }

    /// "The program counter is at location `l`" as a term of `tm` (which extends
    /// [`ProgramSystem::tm`]): the term the encoding made.
    pub fn at_term(&self, tm: &mut TermManager, l: usize) -> TermId {
        match self.pc {
            PcEncoding::Binary => {
                let pc = self.pc_terms[0];
                let c = tm.bv_const(l as u128, tm.width(pc));
                tm.eq(pc, c)
            }
            PcEncoding::OneHot => self.pc_terms[l],
        }
    }

    /// The system as it was built, with its model, for preprocessing.
    pub fn original(&self) -> Original<'_> {
        Original {
            model: &self.model,
            sys: &self.sys,
            latch_var: &self.latch_var,
            input_var: &self.input_var,
            words: self.words(),
        }
    }

    /// The words of the system: its state variables and its input slots.
    pub fn words(&self) -> Words {
        Words {
            latches: self.state.iter().map(|(_, bits)| bits.clone()).collect(),
            inputs: self.slots.iter().map(|s| s.inputs.clone()).collect(),
        }
    }

    /// The value of model latch `j` in `st` (a valuation of the system's variables); `None`
    /// when the system does not keep the latch (outside the cone of influence).
    pub fn latch_value(&self, st: &[bool], j: usize) -> Option<bool> {
        self.latch_var[j].map(|v| st[v.index()])
    }

    fn input_value(&self, st: &[bool], k: usize) -> bool {
        self.input_var[k].is_some_and(|v| st[v.index()])
    }

    fn word(bits: &[usize], f: impl Fn(usize) -> bool) -> u128 {
        bits.iter()
            .enumerate()
            .fold(0u128, |acc, (b, &j)| acc | ((f(j) as u128) << b))
    }

    /// Whether location `l` of the CFA is bad under [`ProgramSystem::goal`].
    pub fn is_goal(&self, cfa: &Cfa, l: Loc) -> bool {
        self.goal.includes(cfa.kind(l))
    }

    /// The value of a program variable in `st`: `None` when the system does not keep it.
    pub fn value(&self, st: &[bool], v: PVar) -> Option<u128> {
        let (_, bits) = self.state.iter().find(|(x, _)| *x == v)?;
        let mut x = 0;
        for (b, &j) in bits.iter().enumerate() {
            x |= (self.latch_value(st, j)? as u128) << b;
        }
        Some(x)
    }

    /// The location the program counter is at in `st`: `Ok(Some(l))`, `Ok(None)` for the
    /// absorbing `DONE`, `Err` with a description when the code is not a location's.
    pub fn location(&self, st: &[bool]) -> Result<Option<Loc>, String> {
        let bit = |j: usize| {
            self.latch_value(st, j)
                .ok_or("a pc latch outside the system")
        };
        let nl = self.pc_latches.len();
        let code = match self.pc {
            PcEncoding::Binary => {
                let mut x = 0usize;
                for (b, &j) in self.pc_latches.iter().enumerate() {
                    x |= (bit(j)? as usize) << b;
                }
                x
            }
            PcEncoding::OneHot => {
                let on: Vec<usize> = (0..nl)
                    .filter(|&k| bit(self.pc_latches[k]) == Ok(true))
                    .collect();
                match on[..] {
                    [k] => k,
                    _ => return Err(format!("one-hot pc with {} bits set", on.len())),
                }
            }
        };
        let locations = self.locations;
        match code.cmp(&locations) {
            std::cmp::Ordering::Less => Ok(Some(Loc(code as u32))),
            std::cmp::Ordering::Equal => Ok(None),
            std::cmp::Ordering::Greater => Err(format!("pc code {code} is no location")),
        }
    }

    /// The values of the program counter's latches that the system keeps when it is at code
    /// `code` (a location's index, or [`ProgramSystem::locations`] for `DONE`), as
    /// `(system variable, value)`.
    pub fn pc_bits(&self, code: usize) -> Vec<(Var, bool)> {
        self.pc_latches
            .iter()
            .enumerate()
            .filter_map(|(k, &j)| {
                let v = self.latch_var[j]?;
                let bit = match self.pc {
                    PcEncoding::Binary => (code >> k) & 1 == 1,
                    PcEncoding::OneHot => k == code,
                };
                Some((v, bit))
            })
            .collect()
    }

    /// Whether the system keeps the whole program counter, so that its location and the edge
    /// it takes can be read off every state (always for the binary counter, whose next value
    /// depends on every edge; a one-hot counter may leave out the latches of locations from
    /// which no goal is reachable).
    pub fn keeps_pc(&self) -> bool {
        self.pc_latches.iter().all(|&j| self.latch_var[j].is_some())
    }

    /// Whether `st` is at `DONE`: `None` when the system does not keep enough of the program
    /// counter to tell.
    pub fn at_done(&self, st: &[bool]) -> Option<bool> {
        match self.pc {
            PcEncoding::Binary if self.keeps_pc() => Some(self.location(st) == Ok(None)),
            PcEncoding::Binary => None,
            PcEncoding::OneHot => self.latch_value(st, self.pc_latches[self.locations]),
        }
    }

    /// An evaluator of the encoding's terms in `st`: state variables, program counter and
    /// slots.
    fn evaluator(&self, st: &[bool]) -> Evaluator<'_> {
        let mut ev = Evaluator::new(&self.tm);
        for (v, bits) in &self.state {
            ev.set(
                v.var_id(),
                Self::word(bits, |j| self.latch_value(st, j) == Some(true)),
            );
        }
        let pc_bit = |j: usize| self.latch_value(st, j) == Some(true);
        match self.pc {
            PcEncoding::Binary => {
                if let Some(v) = self.pc_terms.first().and_then(|&t| self.tm.as_var(t)) {
                    ev.set(v, Self::word(&self.pc_latches, pc_bit));
                }
            }
            PcEncoding::OneHot => {
                for (&t, &j) in self.pc_terms.iter().zip(&self.pc_latches) {
                    if let Some(v) = self.tm.as_var(t) {
                        ev.set(v, pc_bit(j) as u128);
                    }
                }
            }
        }
        for s in &self.slots {
            if let Some(v) = self.tm.as_var(s.term) {
                ev.set(v, Self::word(&s.inputs, |k| self.input_value(st, k)));
            }
        }
        ev
    }

    /// The values of the slots in `st` (inputs outside the system read 0).
    pub fn slot_values(&self, st: &[bool]) -> Vec<u128> {
        self.slots
            .iter()
            .map(|s| Self::word(&s.inputs, |k| self.input_value(st, k)))
            .collect()
    }

    /// The edge taken in `st` (state and inputs); `None` when no edge is taken (the program
    /// counter moves to `DONE`). Exact when the system keeps the whole program counter (binary,
    /// whose next value depends on every edge's guard); with a one-hot counter the latches of
    /// locations from which no goal is reachable, and the variables only their edges read, may
    /// be left out.
    pub fn taken_edge(&self, st: &[bool]) -> Option<EdgeId> {
        let mut ev = self.evaluator(st);
        let e = self.taken.iter().position(|&t| ev.eval_bool(t))?;
        Some(EdgeId(e as u32))
    }

    /// The model inputs that give the slots `values` (each truncated to its slot's width;
    /// slots beyond `values` take 0), as `(model input, value)`.
    pub fn slot_inputs(&self, values: &[u128]) -> Vec<(usize, bool)> {
        let mut out = Vec::new();
        for (k, s) in self.slots.iter().enumerate() {
            let x = values.get(k).copied().unwrap_or(0);
            for (b, &i) in s.inputs.iter().enumerate() {
                out.push((i, (x >> b) & 1 == 1));
            }
        }
        out
    }

    /// The nondet values of a path, per step: the values of all slots, up to the last step.
    pub fn slot_sequence(&self, plan: &Plan) -> Vec<Vec<u128>> {
        let n = plan.states.len();
        plan.states[..n.saturating_sub(1)]
            .iter()
            .map(|st| self.slot_values(st))
            .collect()
    }

    /// Replays a path on the interpreter of `cfa` (the CFA encoded), at most `step_limit`
    /// steps: with the slots of every step, which is exact, and then with the values those
    /// steps consumed as one sequence, which a compiled program's nondet calls would return.
    pub fn replay(&self, cfa: &Cfa, plan: &Plan, step_limit: usize) -> Replay {
        let slots = self.slot_sequence(plan);
        let opts = RunOptions {
            step_limit,
            ..RunOptions::default()
        };
        let (outcome, steps) = interp::run_nondet(cfa, Nondet::PerStep(&slots), opts);
        let nondet: Vec<u128> = steps
            .iter()
            .flat_map(|s| s.nondet.iter().map(|&(_, x)| x))
            .collect();
        let (sequence_outcome, _) = interp::run_nondet(cfa, Nondet::Sequence(&nondet), opts);
        Replay {
            outcome,
            steps,
            nondet,
            sequence_outcome,
            slots,
        }
    }
}
