//! Bit-blasting a program's word-level system ([`WordLevel`]) into a circuit [`Model`].
//!
//! The latches are the program counter's bits (reset to the initial location) and the state
//! variables' bits (reset to 0, see below), the inputs the slots' bits, in that order; the next-state
//! functions, the constraints and the bad literal are the word-level terms blasted. The same
//! blasting serves the program's own system ([`super::encode`]) and systems over the same state
//! with other next-state terms, further inputs and further constraints, such as the abstract
//! systems of the `euf` engine: their latches are the program's, in the same order, so that a
//! formula over the latches of one means the same over the latches of the other.
//!
//! **Initial values.** A program variable that every path from the initial location writes
//! before it reads it ([`crate::cfa::uninitialized_reads`] does not list it: a declaration
//! without an initialiser is a havoc) has no behaviour that depends on its initial value, so
//! its latches start at 0 instead of being free: the same runs, from fewer initial states. A
//! fully initialised state is what ternary simulation, signal correspondence and latch
//! merging need (and a cube now excludes the initial states by any literal that disagrees
//! with 0). A variable that may be read before it is written stays uninitialised.

use super::{PcEncoding, Slot, WordLevel};
use crate::aig::blast::Blaster;
use crate::aig::{Aig, AigLit};
use crate::bv::{TermId, TermManager};
use crate::cfa::{Cfa, PVar};
use crate::ts::model::{Model, ModelInput, ModelLatch};

/// The state and inputs of a program's system: what every system over that state shares.
#[derive(Clone, Copy)]
pub struct Layout<'a> {
    pub cfa: &'a Cfa,
    pub pc: PcEncoding,
    /// The program counter's terms (one word, or one `bool` per location and `DONE`).
    pub pc_terms: &'a [TermId],
    /// The state variables, in the order of [`WordLevel::next`].
    pub state: &'a [PVar],
    /// The slots' terms, by position.
    pub slots: &'a [TermId],
}

/// A blasted system: its model, and which model latches and inputs stand for what.
pub struct Blasted {
    pub model: Model,
    /// The model latches of the program counter's bits (binary) or of each location (one-hot).
    pub pc_latches: Vec<usize>,
    /// The state variables with the model latch of each bit.
    pub state: Vec<(PVar, Vec<usize>)>,
    pub slots: Vec<Slot>,
    /// The model inputs of each extra input's bits (LSB first).
    pub extra: Vec<Vec<usize>>,
}

/// The model as it is built.
#[derive(Default)]
struct Circuit {
    aig: Aig,
    bl: Blaster,
    latches: Vec<ModelLatch>,
    inputs: Vec<ModelInput>,
    constraints: Vec<AigLit>,
}

impl Layout<'_> {
    /// Blasts `wl`, with `extra_inputs` (variable terms, named by their variable) as inputs
    /// after the slots and `constraints` (`bool` terms) as invariant constraints after the
    /// program counter's range.
    pub fn blast(
        &self,
        tm: &TermManager,
        wl: &WordLevel,
        extra_inputs: &[TermId],
        constraints: &[TermId],
    ) -> Blasted {
        let mut c = Circuit::default();
        if let Some(range) = wl.pc_range {
            let lit = c.bl.blast_bool(tm, &mut c.aig, range);
            c.constraints.push(lit);
        }
        let pc_latches = self.pc_latches(&mut c, tm);
        let read_first = crate::cfa::uninitialized_reads(self.cfa);
        let state: Vec<(PVar, Vec<usize>)> = self
            .state
            .iter()
            .map(|&v| {
                let reset = (!read_first.contains(&v)).then_some(false);
                (v, c.state_latches(self.cfa, tm, v, reset))
            })
            .collect();
        let slots: Vec<Slot> = (self.slots.iter().enumerate())
            .map(|(k, &t)| {
                let inputs = c.inputs_of(tm, t, |b| format!("nondet[{k}][{b}]"));
                Slot {
                    term: t,
                    width: tm.width(t),
                    inputs,
                }
            })
            .collect();
        let extra: Vec<Vec<usize>> = (extra_inputs.iter())
            .map(|&t| {
                let name = tm
                    .var_info(tm.as_var(t).expect("an input is a variable"))
                    .name
                    .clone();
                c.inputs_of(tm, t, |b| format!("{name}[{b}]"))
            })
            .collect();
        match self.pc {
            PcEncoding::Binary => c.blast_next(tm, &pc_latches, wl.pc_next[0]),
            PcEncoding::OneHot => {
                for (k, &j) in pc_latches.iter().enumerate() {
                    c.latches[j].next = c.bl.blast_bool(tm, &mut c.aig, wl.pc_next[k]);
                }
            }
        }
        for ((_, idx), &nt) in state.iter().zip(&wl.next) {
            c.blast_next(tm, idx, nt);
        }
        for &t in constraints {
            let lit = c.bl.blast_bool(tm, &mut c.aig, t);
            c.constraints.push(lit);
        }
        let bad = c.bl.blast_bool(tm, &mut c.aig, wl.bad);
        let model = Model {
            aig: c.aig,
            latches: c.latches,
            inputs: c.inputs,
            constraints: c.constraints,
            bad,
        };
        Blasted {
            model,
            pc_latches,
            state,
            slots,
            extra,
        }
    }

    /// The program counter's latches: a binary counter's bits reset to the initial
    /// location's code, or one latch per location and `DONE`, the initial location's set.
    fn pc_latches(&self, c: &mut Circuit, tm: &TermManager) -> Vec<usize> {
        let init = self.cfa.init.index();
        let mut out = Vec::new();
        for (k, &t) in self.pc_terms.iter().enumerate() {
            let var = tm.as_var(t).expect("pc is a variable");
            let bits = c.bl.var_bits_or_fresh(tm, &mut c.aig, var);
            for (b, &node) in bits.iter().enumerate() {
                let (reset, name) = match self.pc {
                    PcEncoding::Binary => ((init >> b) & 1 == 1, format!("pc[{b}]")),
                    PcEncoding::OneHot => (k == init, tm.var_info(var).name.clone()),
                };
                out.push(c.latches.len());
                c.latches.push(ModelLatch {
                    node,
                    next: AigLit::FALSE,
                    reset: Some(reset),
                    name: Some(name),
                });
            }
        }
        out
    }
}

impl Circuit {
    /// The latches of a program variable's bits, each starting at `reset` (`None`:
    /// uninitialised).
    fn state_latches(
        &mut self,
        cfa: &Cfa,
        tm: &TermManager,
        v: PVar,
        reset: Option<bool>,
    ) -> Vec<usize> {
        let info = &cfa.vars[v.index()];
        let bits = self.bl.var_bits_or_fresh(tm, &mut self.aig, v.var_id());
        let mut idx = Vec::with_capacity(bits.len());
        for (b, &bit) in bits.iter().enumerate() {
            idx.push(self.latches.len());
            self.latches.push(ModelLatch {
                node: bit,
                next: AigLit::FALSE,
                reset,
                name: Some(format!("{}[{b}]", info.name)),
            });
        }
        idx
    }

    /// The inputs of a variable term's bits, bit `b` named `name(b)`.
    fn inputs_of(
        &mut self,
        tm: &TermManager,
        t: TermId,
        name: impl Fn(u32) -> String,
    ) -> Vec<usize> {
        let var = tm.as_var(t).expect("an input is a variable");
        let bits = self.bl.var_bits_or_fresh(tm, &mut self.aig, var);
        let mut idx = Vec::with_capacity(bits.len());
        for (b, &node) in bits.iter().enumerate() {
            idx.push(self.inputs.len());
            self.inputs.push(ModelInput {
                node,
                name: Some(name(b as u32)),
            });
        }
        idx
    }

    /// Sets the next-state functions of the latches `idx` to the bits of `next`.
    fn blast_next(&mut self, tm: &TermManager, idx: &[usize], next: TermId) {
        let nb = self.bl.blast(tm, &mut self.aig, next);
        for (k, &j) in idx.iter().enumerate() {
            self.latches[j].next = nb[k];
        }
    }
}
