//! From a CFA to a transition system, and from a path of that system back to a nondet sequence
//! for the CFA interpreter.
//!
//! Encoding decisions (seeds-digest 6(c) 15–23):
//! - **Steps.** One transition is one CFA edge (after large-block encoding, a loop-free block).
//!   An edge `e` is *taken* when the program counter is at its source and its guard holds;
//!   the edges leaving a location are tried in order and the first that can be taken is (an
//!   `ite` chain), exactly as the interpreter does. When none can be taken (a failed assume,
//!   the exit, the error location, a sink) the program counter moves to an extra absorbing code
//!   `DONE` and the variables keep their values, so `T` is total and functional.
//! - **Program counter.** Binary by default: location `l` has code `l`, `DONE` the next code,
//!   in `⌈log2(#locations + 1)⌉` bits (0-based codes, 6(c)-16); `U` excludes the unused codes
//!   above `DONE`. One-hot as an option: one latch per location and one for `DONE`.
//! - **No `pred` variable** (6(c)-15/22): the CFA has no phi nodes. Each edge is symbolically
//!   executed: an assignment substitutes, a `Havoc` reads a fresh input (one input per havoc
//!   of each edge), `Seq` composes, `Choice` merges its alternatives with `ite` (at most one
//!   completes). Unassigned variables keep their values (6(c)-17: `same` is explicit).
//! - **Guards within an edge** (6(c)-18) are conjoined in instruction order by the symbolic
//!   execution, so checks in one block are mutually exclusive by construction.
//! - **State variables** (6(c)-21/22): globals are ordinary state. A program variable is state
//!   only if some guard depends on it, directly or through the next-state functions of other
//!   state variables (a cone of influence of the control flow); everything else is dropped.
//!   Values read only after being written within the same edge are expanded inline.
//! - **Initial state.** The program counter is at the initial location; program variables are
//!   uninitialised latches, since the CFA writes every variable before reading it.
//! - **Overflow checks** are edges of the CFA to the error location (built by the front end
//!   from sign bits and double-width products, 6(c)-19); `main`'s return value is not checked
//!   (6(c)-20).
//! - **Bad states**: the program counter at the error location, or (as a separate goal) at an
//!   UNKNOWN sink; [`Goal`] selects which.
//!
//! A path of the system gives, per step, the taken edge and the values of its inputs; the
//! values of the havocs that completed, in execution order, form the nondet sequence that the
//! interpreter replays.

use super::model::{Model, ModelInput, ModelLatch, ModelSystem};
use super::{Plan, System};
use crate::aig::blast::Blaster;
use crate::aig::{Aig, AigLit};
use crate::bv::{Evaluator, Sort, TermId, TermManager};
use crate::cfa::symex::{self, Env, Exec};
use crate::cfa::{Cfa, EdgeId, LocKind, PVar};
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

/// A havoc of an edge: where its value comes from.
#[derive(Clone, Debug)]
pub struct HavocInput {
    pub edge: EdgeId,
    pub pvar: PVar,
    /// The input variable of the word-level system.
    pub term: TermId,
    /// When the havoc completes, given that its edge is taken (over state and inputs).
    pub cond: TermId,
    /// The model input of each bit (LSB first).
    pub inputs: Vec<usize>,
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
    /// The program counter: its term (binary) and the model latches of its bits, or one latch
    /// per location then `DONE` (one-hot).
    pub pc_term: Option<TermId>,
    pub pc_latches: Vec<usize>,
    pub pc: PcEncoding,
    /// When each edge is taken (over state and inputs).
    pub taken: Vec<TermId>,
    /// The havoc inputs, grouped by edge in execution order.
    pub havocs: Vec<HavocInput>,
}

/// The terms of the encoding and the havoc inputs, in creation order.
struct Encoder {
    tm: TermManager,
    inputs: Vec<(EdgeId, PVar, TermId)>,
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
    let mut enc = Encoder {
        tm: cfa.tm.clone(),
        inputs: Vec::new(),
    };
    let nl = cfa.locations.len();
    let done = nl as u128;
    // Symbolic execution of every edge; each havoc reads an input of its own.
    let mut edges: Vec<Exec> = Vec::with_capacity(cfa.edges.len());
    for (i, e) in cfa.edges.iter().enumerate() {
        let edge = EdgeId(i as u32);
        let inputs = &mut enc.inputs;
        let mut havoc = |tm: &mut TermManager, v: PVar| {
            let info = &cfa.vars[v.index()];
            let name = format!("nondet:e{}:{}", edge.0, info.name);
            let t = tm.var(name, Sort::Bv(info.ty.width));
            inputs.push((edge, v, t));
            t
        };
        edges.push(symex::exec(
            &cfa.vars,
            &mut enc.tm,
            &e.cmd,
            Env::new(),
            &mut havoc,
        ));
    }
    // State variables: the cone of influence of the guards.
    let var_of: HashMap<TermId, PVar> = cfa
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.term, PVar(i as u32)))
        .collect();
    let mut state: HashSet<PVar> = HashSet::new();
    let mut pending: Vec<TermId> = edges.iter().map(|x| x.guard).collect();
    for x in &edges {
        pending.extend(x.havocs.iter().map(|h| h.2));
    }
    while let Some(t) = pending.pop() {
        for vid in enc.tm.free_vars(t) {
            let term = enc.tm.var_info(vid).term;
            if let Some(&v) = var_of.get(&term) {
                if state.insert(v) {
                    pending.extend(edges.iter().filter_map(|x| x.env.get(&v).copied()));
                }
            }
        }
    }
    let mut state: Vec<PVar> = state.into_iter().collect();
    state.sort();
    let tm = &mut enc.tm;
    // The program counter.
    let (pc_term, at): (Option<TermId>, Vec<TermId>) = match opts.pc {
        PcEncoding::Binary => {
            let w = bits_needed(done);
            let pc = tm.var("pc", Sort::Bv(w));
            let at = (0..=nl).map(|l| {
                let c = tm.bv_const(l as u128, w);
                tm.eq(pc, c)
            });
            let at: Vec<TermId> = at.collect();
            (Some(pc), at)
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
            (None, at)
        }
    };
    // Taken edges, in the interpreter's order at each location.
    let mut taken = vec![tm.fals(); cfa.edges.len()];
    for out in cfa.out_edges() {
        let mut earlier = tm.fals();
        for e in out {
            let x = &edges[e.index()];
            let from = at[cfa.edges[e.index()].from.index()];
            let can = tm.and(from, x.guard);
            let ne = tm.not(earlier);
            taken[e.index()] = tm.and(can, ne);
            earlier = tm.or(earlier, x.guard);
        }
    }
    let any_taken = tm.or_all(taken.iter().copied());
    // Next-state functions.
    let mut next_vars: Vec<(PVar, TermId)> = Vec::new();
    for &v in &state {
        let mut x = cfa.vars[v.index()].term;
        for (i, ex) in edges.iter().enumerate().rev() {
            if let Some(&val) = ex.env.get(&v) {
                x = tm.ite(taken[i], val, x);
            }
        }
        next_vars.push((v, x));
    }
    let mut aig = Aig::new();
    let mut bl = Blaster::new();
    let mut latches: Vec<ModelLatch> = Vec::new();
    let mut inputs: Vec<ModelInput> = Vec::new();
    let mut constraints = Vec::new();
    let mut pc_latches = Vec::new();
    // Program counter latches and their next-state functions.
    let mut pc_next: Vec<TermId> = Vec::new();
    match opts.pc {
        PcEncoding::Binary => {
            let pc = pc_term.expect("binary pc has a term");
            let w = tm.width(pc);
            let mut nxt = tm.bv_const(done, w);
            for (i, e) in cfa.edges.iter().enumerate().rev() {
                let c = tm.bv_const(e.to.index() as u128, w);
                nxt = tm.ite(taken[i], c, nxt);
            }
            pc_next.push(nxt);
            if (1u128 << w) - 1 > done {
                let max = tm.bv_const(done, w);
                let ok = tm.ule(pc, max);
                constraints.push(bl.blast_bool(tm, &mut aig, ok));
            }
            let init = cfa.init.index() as u128;
            let bits = bl.var_bits_or_fresh(tm, &mut aig, tm.as_var(pc).expect("pc is a variable"));
            for (b, &node) in bits.iter().enumerate() {
                pc_latches.push(latches.len());
                let reset = Some((init >> b) & 1 == 1);
                latches.push(ModelLatch {
                    node,
                    next: AigLit::FALSE,
                    reset,
                    name: Some(format!("pc[{b}]")),
                });
            }
        }
        PcEncoding::OneHot => {
            for (l, &at_l) in at.iter().enumerate() {
                let into = if l == nl {
                    tm.not(any_taken)
                } else {
                    let ins: Vec<TermId> = (0..cfa.edges.len())
                        .filter(|&i| cfa.edges[i].to.index() == l)
                        .map(|i| taken[i])
                        .collect();
                    tm.or_all(ins)
                };
                pc_next.push(into);
                let node = bl.var_bits_or_fresh(
                    tm,
                    &mut aig,
                    tm.as_var(at_l).expect("pc bit is a variable"),
                )[0];
                pc_latches.push(latches.len());
                let name = tm
                    .var_info(tm.as_var(at_l).expect("pc bit is a variable"))
                    .name
                    .clone();
                latches.push(ModelLatch {
                    node,
                    next: AigLit::FALSE,
                    reset: Some(l == cfa.init.index()),
                    name: Some(name),
                });
            }
        }
    }
    // Program variable latches.
    let mut state_bits = Vec::new();
    for &v in &state {
        let info = &cfa.vars[v.index()];
        let bits = bl.var_bits_or_fresh(tm, &mut aig, v.var_id());
        let mut idx = Vec::new();
        for (b, &bit) in bits.iter().enumerate() {
            idx.push(latches.len());
            latches.push(ModelLatch {
                node: bit,
                next: AigLit::FALSE,
                reset: None,
                name: Some(format!("{}[{b}]", info.name)),
            });
        }
        state_bits.push((v, idx));
    }
    // Inputs (fresh bits for every havoc).
    let mut havocs = Vec::new();
    for (i, ex) in edges.iter().enumerate() {
        for &(v, t, c) in &ex.havocs {
            let bits = bl.var_bits_or_fresh(
                tm,
                &mut aig,
                tm.as_var(t).expect("havoc input is a variable"),
            );
            let mut idx = Vec::new();
            let name = tm
                .var_info(tm.as_var(t).expect("havoc input is a variable"))
                .name
                .clone();
            for (b, &node) in bits.iter().enumerate() {
                idx.push(inputs.len());
                inputs.push(ModelInput {
                    node,
                    name: Some(format!("{name}[{b}]")),
                });
            }
            havocs.push(HavocInput {
                edge: EdgeId(i as u32),
                pvar: v,
                term: t,
                cond: c,
                inputs: idx,
            });
        }
    }
    // Next-state functions, blasted.
    match opts.pc {
        PcEncoding::Binary => {
            let nb = bl.blast(tm, &mut aig, pc_next[0]);
            for (k, &j) in pc_latches.iter().enumerate() {
                latches[j].next = nb[k];
            }
        }
        PcEncoding::OneHot => {
            for (k, &j) in pc_latches.iter().enumerate() {
                latches[j].next = bl.blast_bool(tm, &mut aig, pc_next[k]);
            }
        }
    }
    for ((_, idx), &(_, nt)) in state_bits.iter().zip(&next_vars) {
        let nb = bl.blast(tm, &mut aig, nt);
        for (k, &j) in idx.iter().enumerate() {
            latches[j].next = nb[k];
        }
    }
    // Bad states.
    let mut bad_locs = Vec::new();
    for (l, info) in cfa.locations.iter().enumerate() {
        let is = matches!(
            (&info.kind, opts.goal),
            (LocKind::Error, Goal::Error | Goal::Any) | (LocKind::Sink(_), Goal::Sink | Goal::Any)
        );
        if is {
            bad_locs.push(at[l]);
        }
    }
    let bad_t = tm.or_all(bad_locs);
    let bad = bl.blast_bool(tm, &mut aig, bad_t);
    let model = Model {
        aig,
        latches,
        inputs,
        constraints,
        bad,
    };
    let ModelSystem {
        sys,
        latch_var,
        input_var,
    } = model.to_system();
    let tm = enc.tm;
    ProgramSystem {
        tm,
        model,
        sys,
        latch_var,
        input_var,
        state: state_bits,
        pc_term,
        pc_latches,
        pc: opts.pc,
        taken,
        havocs,
    }
}

impl ProgramSystem {
    fn latch_value(&self, st: &[bool], j: usize) -> bool {
        self.latch_var[j].is_some_and(|v| st[v.index()])
    }

    fn input_value(&self, st: &[bool], k: usize) -> bool {
        self.input_var[k].is_some_and(|v| st[v.index()])
    }

    fn word(bits: &[usize], f: impl Fn(usize) -> bool) -> u128 {
        bits.iter()
            .enumerate()
            .fold(0u128, |acc, (b, &j)| acc | ((f(j) as u128) << b))
    }

    /// The nondet sequence of a path: for every step, the values of the havocs that completed
    /// on the taken edge, in execution order.
    pub fn nondet_sequence(&self, plan: &Plan) -> Vec<u128> {
        let mut seq = Vec::new();
        let n = plan.states.len();
        for st in &plan.states[..n.saturating_sub(1)] {
            let mut ev = Evaluator::new(&self.tm);
            for (v, bits) in &self.state {
                ev.set(v.var_id(), Self::word(bits, |j| self.latch_value(st, j)));
            }
            match (self.pc, self.pc_term) {
                (PcEncoding::Binary, Some(pc)) => {
                    if let Some(v) = self.tm.as_var(pc) {
                        ev.set(v, Self::word(&self.pc_latches, |j| self.latch_value(st, j)));
                    }
                }
                _ => {
                    for &j in &self.pc_latches {
                        if let Some(name) = &self.model.latches[j].name {
                            if let Some(info) = self.tm.vars().iter().find(|i| &i.name == name) {
                                if let Some(v) = self.tm.as_var(info.term) {
                                    ev.set(v, self.latch_value(st, j) as u128);
                                }
                            }
                        }
                    }
                }
            }
            for h in &self.havocs {
                if let Some(v) = self.tm.as_var(h.term) {
                    ev.set(v, Self::word(&h.inputs, |k| self.input_value(st, k)));
                }
            }
            let Some(e) = self.taken.iter().position(|&t| ev.eval_bool(t)) else {
                break;
            };
            for h in self.havocs.iter().filter(|h| h.edge.index() == e) {
                if ev.eval_bool(h.cond) {
                    seq.push(ev.eval(h.term));
                }
            }
        }
        seq
    }
}
