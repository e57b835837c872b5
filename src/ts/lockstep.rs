//! Lock-step comparison of a CFA's interpreter with the bit-level system of its encoding
//! ([`super::program`]), in both directions, so that any difference between what the CFA means
//! and what the system means shows at the first state where it matters.
//!
//! - **CFA → system** ([`ProgramLockstep::follow_interpreter`]): a nondet sequence runs on the
//!   interpreter, and the system is stepped ([`super::step`]) from an initial state with drawn
//!   values of the program variables (the CFA writes every variable before reading it, so they
//!   must not matter) with, in every step, each slot set to the value at its position: the
//!   sequence from where the values consumed by the earlier steps end.
//! - **System → CFA** ([`ProgramLockstep::simulate`], then [`ProgramLockstep::replay`]): the
//!   system is stepped with drawn slot values and drawn initial values of the program variables
//!   (the CFA writes every variable before reading it); the path is decoded as the slots of
//!   every step and as the flat sequence of the values each step consumes
//!   ([`ProgramSystem::nondet_sequence`]), and both run on the interpreter. The first replay is
//!   exact by construction of the encoding; the second also relies on the CFA's determinism
//!   (an edge that fails does not depend on values its step does not consume).
//!
//! In every state compared, the program counter is at the interpreter's location, every program
//! variable the system keeps has the interpreter's value once the interpreter has written it, the goal holds exactly at the goal locations, the edge the
//! system takes and the number of values it consumes are the interpreter's, and the run ends
//! the same way: at the error location, a sink or the exit, or blocked, where the system moves
//! to `DONE`.
//!
//! [`read_back_exports`] gives the DimSpec and AIGER exports of a program system read back, to
//! step them against it bit for bit ([`super::step::compare_systems`]).
//!
//! The same comparison with a system encoded from a changed CFA (a negated guard, a dropped
//! assignment) finds the change, which is how the tests show that it can fail.

use super::program::ProgramSystem;
use super::step::{Correspondence, Stepper};
use super::System;
use crate::aig::aiger::{self, Format};
use crate::cfa::interp::{self, Nondet, Outcome, RunOptions, Step};
use crate::cfa::{Cfa, Loc, PVar};
use crate::sat::Var;

/// The first state where the interpreter and the system differ.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("state {state}: {what}")]
pub struct Mismatch {
    /// The number of steps taken before it.
    pub state: usize,
    pub what: String,
}

/// A path of a program's system, stepped concretely.
#[derive(Clone, Debug)]
pub struct SystemRun {
    /// The states; the last one is at a final location, takes no edge, or is at the step limit.
    pub states: Vec<Vec<bool>>,
    /// The slot values of every state.
    pub slots: Vec<Vec<u128>>,
}

impl SystemRun {
    /// The latch values of the first state.
    pub fn initial_latches(&self, stepper: &Stepper<'_>) -> Vec<(Var, bool)> {
        let st = &self.states[0];
        stepper
            .latches()
            .iter()
            .map(|&v| (v, st[v.index()]))
            .collect()
    }

    /// The values of the system's input variables `inputs` in every state.
    pub fn inputs(&self, inputs: &[Var]) -> Vec<Vec<(Var, bool)>> {
        self.states
            .iter()
            .map(|st| inputs.iter().map(|&v| (v, st[v.index()])).collect())
            .collect()
    }
}

/// A system's export read back: its format, the system, and how its variables correspond to
/// the original's (for [`super::step::compare_systems`]).
pub struct ReadBack {
    pub format: String,
    pub sys: System,
    pub map: Correspondence,
}

/// The DimSpec and AIGER (binary and ASCII) exports of `ps`, written and read back.
pub fn read_back_exports(ps: &ProgramSystem) -> Result<Vec<ReadBack>, String> {
    let problem = super::dimspec::to_problem(&ps.sys, vec!["lock-step".into()]);
    let bytes = dimspec::to_bytes(&problem).map_err(|e| format!("DimSpec export: {e}"))?;
    let back = dimspec::parse(&bytes).map_err(|e| format!("DimSpec read back: {e}"))?;
    let latches = ps.sys.latch_vars();
    let inputs: Vec<Var> = ps.input_var.iter().flatten().copied().collect();
    let mut out = vec![ReadBack {
        format: "DimSpec".into(),
        sys: super::dimspec::from_problem(&back),
        map: Correspondence {
            latches: latches.iter().map(|&v| (v, v)).collect(),
            inputs: inputs.iter().map(|&v| (v, v)).collect(),
        },
    }];
    for format in [Format::Binary, Format::Ascii] {
        let a = ps
            .model
            .to_aiger(vec![])
            .to_bytes(format)
            .and_then(|b| aiger::parse(&b))
            .map_err(|e| e.to_string())
            .and_then(|f| super::aiger::from_aiger(&f).map_err(|e| e.to_string()))
            .map_err(|e| format!("AIGER {format:?} export read back: {e}"))?;
        let map =
            Correspondence::by_index(&ps.latch_var, &ps.input_var, &a.latch_var, &a.input_var);
        out.push(ReadBack {
            format: format!("AIGER {format:?}"),
            sys: a.sys,
            map,
        });
    }
    Ok(out)
}

/// The lock-step comparison of a CFA's interpreter with a program system.
pub struct ProgramLockstep<'a> {
    cfa: &'a Cfa,
    ps: &'a ProgramSystem,
    stepper: Stepper<'a>,
}

fn mismatch(state: usize, what: impl Into<String>) -> Mismatch {
    Mismatch {
        state,
        what: what.into(),
    }
}

impl<'a> ProgramLockstep<'a> {
    /// Compares the interpreter of `cfa` with `ps`, the system of `cfa` or of a CFA with the
    /// same locations and variables.
    pub fn new(cfa: &'a Cfa, ps: &'a ProgramSystem) -> ProgramLockstep<'a> {
        ProgramLockstep {
            cfa,
            ps,
            stepper: Stepper::new(&ps.sys),
        }
    }

    /// The stepper of the system.
    pub fn stepper(&self) -> &Stepper<'a> {
        &self.stepper
    }

    /// The system's variable values that give the model inputs of the slots `values`.
    pub fn slot_assignment(&self, values: &[u128]) -> Vec<(Var, bool)> {
        self.ps
            .slot_inputs(values)
            .into_iter()
            .filter_map(|(k, b)| self.ps.input_var[k].map(|v| (v, b)))
            .collect()
    }

    /// The initial latches: the program counter at the initial location, each program
    /// variable the value `value` gives it.
    pub fn initial_latches(&self, value: &mut dyn FnMut(PVar, u32) -> u128) -> Vec<(Var, bool)> {
        let mut out = self.stepper.reset_values();
        for (v, bits) in &self.ps.state {
            let x = value(*v, bits.len() as u32);
            for (b, &j) in bits.iter().enumerate() {
                if let Some(var) = self.ps.latch_var[j] {
                    out.push((var, (x >> b) & 1 == 1));
                }
            }
        }
        out
    }

    fn complete(
        &self,
        state: usize,
        latches: &[(Var, bool)],
        slots: &[u128],
    ) -> Result<Vec<bool>, Mismatch> {
        let mut given = latches.to_vec();
        given.extend(self.slot_assignment(slots));
        self.stepper
            .complete(&given)
            .map_err(|e| mismatch(state, format!("the system cannot complete the state: {e}")))
    }

    fn next(&self, i: usize, st: &[bool]) -> Result<Vec<(Var, bool)>, Mismatch> {
        self.stepper
            .next(st)
            .map_err(|e| mismatch(i, format!("the system cannot step: {e}")))
    }

    /// CFA → system: runs `nondet` on the interpreter (at most `step_limit` steps) and the
    /// system alongside, its program variables starting with values from `draw` (called with
    /// the width); returns the number of states compared and the system's run.
    pub fn follow_interpreter(
        &self,
        nondet: &[u128],
        step_limit: usize,
        draw: &mut dyn FnMut(u32) -> u128,
    ) -> Result<(usize, SystemRun), Mismatch> {
        let (outcome, steps) = interp::run(self.cfa, nondet, step_limit);
        let window = |base: usize| -> Vec<u128> {
            (0..self.ps.slots.len())
                .map(|k| nondet.get(base + k).copied().unwrap_or(0))
                .collect()
        };
        let mut latches = self.initial_latches(&mut |_, w| draw(w));
        let mut base = 0;
        let mut run = SystemRun {
            states: Vec::with_capacity(steps.len() + 1),
            slots: Vec::with_capacity(steps.len() + 1),
        };
        for i in 0..=steps.len() {
            let slots = window(base);
            let st = self.complete(i, &latches, &slots)?;
            if let Some(s) = steps.get(i) {
                latches = self.next(i, &st)?;
                base += s.nondet.len();
            }
            run.states.push(st);
            run.slots.push(slots);
        }
        let compared = self.compare(&outcome, &steps, &run.states)?;
        Ok((compared, run))
    }

    /// The run of the system from the initial state whose program variables are 0 with the
    /// slots `slots[i]` in step `i` (the last state's slots 0): how a path known as the nondet
    /// values of each step (e.g. IC3CFA's counterexample) becomes a plan of the system.
    pub fn run_slots(&self, slots: &[Vec<u128>]) -> Result<SystemRun, Mismatch> {
        self.run_slots_from(&mut |_, _| 0, slots)
    }

    /// [`ProgramLockstep::run_slots`] from the initial state whose program variables `value`
    /// gives values (called with the width).
    pub fn run_slots_from(
        &self,
        value: &mut dyn FnMut(PVar, u32) -> u128,
        slots: &[Vec<u128>],
    ) -> Result<SystemRun, Mismatch> {
        let mut latches = self.initial_latches(value);
        let mut run = SystemRun {
            states: Vec::with_capacity(slots.len() + 1),
            slots: Vec::with_capacity(slots.len() + 1),
        };
        for i in 0..=slots.len() {
            let values = slots.get(i).cloned().unwrap_or_default();
            let st = self.complete(i, &latches, &values)?;
            if i < slots.len() {
                latches = self.next(i, &st)?;
            }
            run.states.push(st);
            run.slots.push(values);
        }
        Ok(run)
    }

    /// System → CFA, first half: steps the system from an initial state whose program
    /// variables `draw` gives values, with slot values from `draw` (called with the width), for
    /// at most `step_limit` steps, until the program counter is at `DONE` (that state left out).
    pub fn simulate(
        &self,
        draw: &mut dyn FnMut(u32) -> u128,
        step_limit: usize,
    ) -> Result<SystemRun, Mismatch> {
        let mut latches = self.initial_latches(&mut |_, w| draw(w));
        let mut run = SystemRun {
            states: Vec::new(),
            slots: Vec::new(),
        };
        for i in 0..=step_limit {
            let slots: Vec<u128> = self.ps.slots.iter().map(|s| draw(s.width)).collect();
            let st = self.complete(i, &latches, &slots)?;
            if i > 0 && self.ps.at_done(&st) == Some(true) {
                break;
            }
            if i < step_limit {
                latches = self.next(i, &st)?;
            }
            run.states.push(st);
            run.slots.push(slots);
        }
        Ok(run)
    }

    /// System → CFA, second half: replays `run` on the interpreter with the slots of every step,
    /// then with the values that replay consumed as one sequence (followed by the last state's
    /// slots, which the edges that fail there read); returns the number of states compared in
    /// each.
    pub fn replay(&self, run: &SystemRun) -> Result<(usize, usize), Mismatch> {
        let opts = RunOptions {
            step_limit: run.states.len(),
            ..RunOptions::default()
        };
        let (outcome, steps) = interp::run_nondet(self.cfa, Nondet::PerStep(&run.slots), opts);
        let per_step = self.compare(&outcome, &steps, &run.states)?;
        let mut flat: Vec<u128> = steps
            .iter()
            .flat_map(|s| s.nondet.iter().map(|&(_, x)| x))
            .collect();
        if let Some(last) = run.slots.get(steps.len()) {
            flat.extend(last);
        }
        let (outcome, steps) = interp::run_nondet(self.cfa, Nondet::Sequence(&flat), opts);
        let flat = self
            .compare(&outcome, &steps, &run.states)
            .map_err(|m| Mismatch {
                what: format!("with the consumed values as one sequence: {}", m.what),
                ..m
            })?;
        Ok((per_step, flat))
    }

    /// Compares an interpreter run (`outcome`, `steps`) with system states (the first the
    /// initial one); a variable only once the interpreter wrote it.
    fn compare(
        &self,
        outcome: &Outcome,
        steps: &[Step],
        states: &[Vec<bool>],
    ) -> Result<usize, Mismatch> {
        let (cfa, ps) = (self.cfa, self.ps);
        let mut vals = vec![0u128; cfa.vars.len()];
        let mut written = vec![false; cfa.vars.len()];
        let n = steps.len();
        let points = (n + 1).min(states.len());
        let mut loc = cfa.init;
        for (i, st) in states.iter().enumerate().take(points) {
            if i > 0 {
                let s = &steps[i - 1];
                loc = cfa.edge(s.edge).to;
                for &(v, x) in &s.writes {
                    vals[v.index()] = x;
                    written[v.index()] = true;
                }
            }
            self.compare_state(i, st, loc, &vals, &written)?;
            if let (Some(s), true) = (steps.get(i), ps.keeps_pc()) {
                let got = ps.taken_edge(st);
                if got != Some(s.edge) {
                    return Err(mismatch(
                        i,
                        format!("the system takes {got:?}, the interpreter {:?}", s.edge),
                    ));
                }
            }
        }
        let ended = matches!(
            outcome,
            Outcome::Error { .. }
                | Outcome::Sink { .. }
                | Outcome::Exit
                | Outcome::AssumeFailed { .. }
        );
        if !ended || states.len() < n + 1 {
            return Ok(points);
        }
        // The interpreter ended at state `n`: the system moves to `DONE` and stays there.
        let done = ps.pc_bits(ps.locations);
        let next = self.next(n, &states[n])?;
        let at_done = |i: usize, values: &dyn Fn(Var) -> Option<bool>| match done
            .iter()
            .find(|&&(v, b)| values(v) != Some(b))
        {
            None => Ok(()),
            Some(_) => Err(mismatch(
                i,
                format!("the interpreter ends with {outcome:?}, the system goes on"),
            )),
        };
        at_done(n + 1, &|v| next.iter().find(|x| x.0 == v).map(|x| x.1))?;
        for (i, st) in states.iter().enumerate().skip(n + 1) {
            at_done(i, &|v| Some(st[v.index()]))?;
            if self.stepper.is_bad(st) {
                return Err(mismatch(i, "the system is in a goal state after the end"));
            }
        }
        Ok(points)
    }

    fn compare_state(
        &self,
        i: usize,
        st: &[bool],
        loc: Loc,
        vals: &[u128],
        written: &[bool],
    ) -> Result<(), Mismatch> {
        let (cfa, ps) = (self.cfa, self.ps);
        if ps
            .pc_bits(loc.index())
            .iter()
            .any(|&(v, b)| st[v.index()] != b)
        {
            return Err(mismatch(
                i,
                format!(
                    "the interpreter is at {loc}, the system's program counter at {:?}",
                    ps.location(st)
                ),
            ));
        }
        if self.stepper.is_bad(st) != ps.is_goal(cfa, loc) {
            return Err(mismatch(
                i,
                format!("at {loc} the system's goal is {}", self.stepper.is_bad(st)),
            ));
        }
        for (v, _) in &ps.state {
            if !written[v.index()] {
                continue;
            }
            let Some(x) = ps.value(st, *v) else { continue };
            if x != vals[v.index()] {
                return Err(mismatch(
                    i,
                    format!(
                        "at {loc} `{}` is {} on the interpreter, {x} in the system",
                        cfa.var(*v).name,
                        vals[v.index()]
                    ),
                ));
            }
        }
        Ok(())
    }
}
