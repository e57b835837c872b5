//! Checking an abstract counterexample on the precise system, and refining the abstraction
//! when it is spurious (EUForia's refinement by simulation, Bueno and Sakallah).
//!
//! An abstract path fixes the input slots of every step. The precise system is run on the
//! same slots from its initial state ([`ProgramLockstep::run_slots`]; the program writes every
//! variable before reading it, so the initial values of program variables do not matter): if
//! it reaches the goal, so does the program, and that run is the counterexample. Otherwise the
//! two runs part at some step — the first whose successor differs on a latch both systems
//! keep. Up to there they agree, so some application abstract in that step has an output
//! other than its value: each such application gets, for every bit `j` of the output that is
//! wrong, the lemma `args agree with their values on the bits S → bit j is r_j`, where `S` is
//! found by ternary simulation of the operator's circuit: starting from all argument bits
//! known, each bit is set to X unless that makes bit `j` unknown (sound: a binary result of
//! ternary simulation is the value under every completion of the Xs). The lemma excludes the
//! abstract step that was taken, and holds of the precise operator, so refinement removes
//! abstract transitions only. An application refined `precise_after` times is made precise,
//! and so is one whose lemma would name a bit outside the precise system's cone of influence
//! (see [`Abstraction::outside_bit`]).

use super::abstraction::{Abstraction, Built};
use crate::aig::blast::Blaster;
use crate::aig::sim::{Ternary, TernarySim};
use crate::aig::{Aig, AigLit};
use crate::bv::{value, Op, Sort, TermId, TermManager, Valuation};
use crate::cfa::{Cfa, PVar};
use crate::ts::lockstep::ProgramLockstep;
use crate::ts::model::ModelSystem;
use crate::ts::program::ProgramSystem;
use crate::ts::Plan;
use std::collections::HashMap;

/// What an abstract counterexample turned out to be.
pub enum Checked {
    /// A path of the precise system to the goal.
    Real(Plan),
    /// Spurious: the lemmas learned and the applications made precise.
    Refined { lemmas: usize, made_precise: usize },
}

/// The value of a word whose bits are model latches or inputs `idx`, through `var_of`.
fn word(st: &[bool], idx: &[usize], var_of: &[Option<crate::sat::Var>]) -> u128 {
    idx.iter().enumerate().fold(0, |acc, (b, &k)| {
        let bit = var_of[k].is_some_and(|v| st[v.index()]);
        acc | ((bit as u128) << b)
    })
}

/// The circuits of the operators, blasted once per operator and argument sorts.
#[derive(Default)]
pub struct Circuits {
    cache: HashMap<(Op, Vec<Sort>), Circuit>,
}

/// One operator's circuit: its argument bits' input variables and its output bits.
struct Circuit {
    aig: Aig,
    inputs: Vec<Vec<u32>>,
    out: Vec<AigLit>,
}

impl Circuits {
    /// The argument bits `(argument, bit)` that force bit `j` of `op`'s output to its value
    /// when the arguments (of `sorts`) are `vals`.
    pub fn support(
        &mut self,
        op: Op,
        sorts: &[Sort],
        vals: &[u128],
        j: usize,
    ) -> Vec<(usize, u32)> {
        let circuit = self
            .cache
            .entry((op, sorts.to_vec()))
            .or_insert_with(|| Circuit::new(op, sorts));
        circuit.support(vals, j)
    }
}

impl Circuit {
    fn new(op: Op, sorts: &[Sort]) -> Circuit {
        let mut tm = TermManager::new();
        let vars: Vec<TermId> = (sorts.iter().enumerate())
            .map(|(k, &s)| tm.var(format!("a{k}"), s))
            .collect();
        let t = tm.app(op, &vars);
        let mut aig = Aig::new();
        let mut bl = Blaster::new();
        let inputs = vars
            .iter()
            .map(|&v| {
                let id = tm.as_var(v).expect("a variable");
                let bits = bl.var_bits_or_fresh(&tm, &mut aig, id);
                bits.iter().map(|l| l.var()).collect()
            })
            .collect();
        let out = bl.blast(&tm, &mut aig, t);
        Circuit { aig, inputs, out }
    }

    /// The argument bits `(argument, bit)` that force output bit `j` to its value when the
    /// arguments are `vals`.
    fn support(&self, vals: &[u128], j: usize) -> Vec<(usize, u32)> {
        let mut sim = TernarySim::new(&self.aig);
        for (k, bits) in self.inputs.iter().enumerate() {
            for (b, &v) in bits.iter().enumerate() {
                sim.set_input(v, Ternary::from_bool((vals[k] >> b) & 1 == 1));
            }
        }
        sim.simulate();
        let keep = [self.out[j]];
        let mut support = Vec::new();
        for (k, bits) in self.inputs.iter().enumerate() {
            for (b, &v) in bits.iter().enumerate().rev() {
                if !sim.try_set_x(v, &keep) {
                    support.push((k, b as u32));
                }
            }
        }
        support
    }
}

/// Checks the abstract path `plan` of `built`, and refines `abs` when it is spurious.
pub fn check(
    cfa: &Cfa,
    ps: &ProgramSystem,
    abs: &mut Abstraction<'_>,
    built: &Built,
    plan: &Plan,
    circuits: &mut Circuits,
    precise_after: usize,
) -> Result<Checked, String> {
    let b = &built.blasted;
    let ms = &built.ms;
    let depth = plan.states.len().saturating_sub(1);
    let slots: Vec<Vec<u128>> = plan.states[..depth]
        .iter()
        .map(|st| {
            b.slots
                .iter()
                .map(|s| word(st, &s.inputs, &ms.input_var))
                .collect()
        })
        .collect();
    let lock = ProgramLockstep::new(cfa, ps);
    let first = &plan.states[0];
    let mut initial = |v: PVar, _| {
        let bits = &b
            .state
            .iter()
            .find(|(x, _)| *x == v)
            .expect("a state variable")
            .1;
        word(first, bits, &ms.latch_var)
    };
    let run = (lock.run_slots_from(&mut initial, &slots)).map_err(|e| e.to_string())?;
    if let Some(k) = run.states.iter().position(|st| lock.stepper().is_bad(st)) {
        let states = run.states[..=k].to_vec();
        return Ok(Checked::Real(Plan { states }));
    }
    let step = (0..depth)
        .find(|&i| !agree(ps, ms, &run.states[i + 1], &plan.states[i + 1]))
        .ok_or("the abstract and the precise run agree, but only one reaches the goal")?;
    let st = &plan.states[step];
    let mut env = state_env(cfa, ps, ms, &run.states[step], st);
    for (k, s) in b.slots.iter().enumerate() {
        env.push((s.term, slots[step][k]));
    }
    for (x, &i) in built.outputs.iter().enumerate() {
        env.push((abs.apps[i].output, word(st, &b.extra[x], &ms.input_var)));
    }
    let val = Valuation::of_terms(&abs.tm, env);
    let (lemmas, made_precise) = refine_step(abs, built, val, circuits, precise_after);
    if lemmas == 0 && made_precise == 0 {
        return Err(format!("no abstract application is wrong at step {step}"));
    }
    Ok(Checked::Refined {
        lemmas,
        made_precise,
    })
}

/// Lemmas for every abstract application whose output in `val` (the values at the step where
/// the runs part) is not its value; the numbers of lemmas and of applications made precise.
fn refine_step(
    abs: &mut Abstraction<'_>,
    built: &Built,
    mut val: Valuation,
    circuits: &mut Circuits,
    precise_after: usize,
) -> (usize, usize) {
    let (mut lemmas, mut made_precise) = (0, 0);
    for &i in &built.outputs {
        let args: Vec<u128> = built.args[i].iter().map(|&a| val.of(&abs.tm, a)).collect();
        let app = &abs.apps[i];
        let sorts: Vec<Sort> = app.args.iter().map(|&a| abs.tm.sort(a)).collect();
        let sort = abs.tm.sort(app.term);
        let precise = value::apply(app.op, &args, &sorts, sort);
        let output = val.of(&abs.tm, app.output);
        if precise == output {
            continue;
        }
        let op = app.op;
        let wrong = precise ^ output;
        let mut unreadable = false;
        for j in (0..sort.width()).filter(|&j| (wrong >> j) & 1 == 1) {
            let support = circuits.support(op, &sorts, &args, j as usize);
            if (support.iter()).any(|&(k, b)| abs.outside_bit(abs.apps[i].args[k], b)) {
                // A premise on a bit the precise system leaves out (ternary simulation can need
                // more bits than the circuit's cone: a remainder by 2 past bit 0) would bring
                // that bit into the abstract system; the application is made precise instead,
                // its circuit the precise system's own, with the same cone.
                unreadable = true;
                continue;
            }
            let lemma = lemma(&mut abs.tm, &abs.apps[i], &args, &support, j, precise);
            abs.lemmas.push((i, lemma));
            lemmas += 1;
        }
        let app = &mut abs.apps[i];
        app.refinements += 1;
        if app.refinements >= precise_after || unreadable {
            app.precise = true;
            made_precise += 1;
        }
    }
    (lemmas, made_precise)
}

/// Whether two states agree on every latch both systems keep.
fn agree(ps: &ProgramSystem, ms: &ModelSystem, precise: &[bool], abs: &[bool]) -> bool {
    (0..ps.latch_var.len()).all(|j| match (ps.latch_var[j], ms.latch_var[j]) {
        (Some(p), Some(a)) => precise[p.index()] == abs[a.index()],
        _ => true,
    })
}

/// The values of the state variables and the program counter at the step where the runs
/// part: each latch as the precise state has it, or the abstract one where only the abstract
/// system keeps it (the runs agree on the latches both keep).
fn state_env(
    cfa: &Cfa,
    ps: &ProgramSystem,
    ms: &ModelSystem,
    precise: &[bool],
    abs: &[bool],
) -> Vec<(TermId, u128)> {
    let bit = |j: usize| match (ps.latch_var[j], ms.latch_var[j]) {
        (Some(p), _) => precise[p.index()],
        (None, Some(a)) => abs[a.index()],
        (None, None) => false,
    };
    let word = |idx: &[usize]| {
        (idx.iter().enumerate()).fold(0u128, |acc, (b, &j)| acc | ((bit(j) as u128) << b))
    };
    let mut env = Vec::new();
    for (v, bits) in &ps.state {
        env.push((cfa.vars[v.index()].term, word(bits)));
    }
    let mut at = 0;
    for &t in &ps.pc_terms {
        let w = ps.tm.width(t) as usize;
        env.push((t, word(&ps.pc_latches[at..at + w])));
        at += w;
    }
    env
}

/// `⋁_{(k, b) ∈ support} arg_k[b] ≠ v_k[b]  ∨  app[j] = r_j`, over the precise terms.
fn lemma(
    tm: &mut TermManager,
    app: &super::abstraction::App,
    args: &[u128],
    support: &[(usize, u32)],
    j: u32,
    precise: u128,
) -> TermId {
    let mut lits = Vec::with_capacity(support.len() + 1);
    for &(k, b) in support {
        let is = bit_is(tm, app.args[k], b, (args[k] >> b) & 1 == 1);
        lits.push(tm.not(is));
    }
    lits.push(bit_is(tm, app.term, j, (precise >> j) & 1 == 1));
    tm.or_all(lits)
}

/// `bit b of t is v`, for a bit-vector or a Boolean `t` (its only bit).
fn bit_is(tm: &mut TermManager, t: TermId, b: u32, v: bool) -> TermId {
    match tm.sort(t) {
        Sort::Bool if v => t,
        Sort::Bool => tm.not(t),
        Sort::Bv(_) => {
            let bit = tm.extract(t, b, b);
            let v = tm.bv_const(u128::from(v), 1);
            tm.eq(bit, v)
        }
    }
}
