//! Candidate invariants of a program system, and the system constrained by proven ones.
//!
//! A candidate is a comparison of program variables guarded by a location: "whenever the
//! program counter is at `l`, `x ≤ y`". For every location with outgoing edges (other than the
//! initial one) and every pair of state variables of the same C type, the candidates are
//! `x == y`, `x < y`, `x <= y`, `y < x` and `y <= x` (signed or unsigned as the type says), and
//! for every state variable `x == 0`, `x > 0`, `x >= 0` (the last for signed types only); and
//! when a type has at most [`MAX_SUM_VARS`] state variables, the sums `x + y == z` and
//! `x + y == z + w` in the type's wrapping arithmetic. They are AIG literals over the latches,
//! added to the model's AIG.
//!
//! [`constrained`] builds the bit-level system of the model with proven invariants added as
//! invariant constraints. Constraints that every reachable state satisfies remove
//! no path, so the constrained system has the same reachable goal states: a counterexample of
//! it is one of the original system, and an inductive invariant of it, conjoined with the
//! constraints, is one of the original system.

use super::program::{PcEncoding, ProgramSystem};
use super::simulate::{self, Simulation, Words};
use crate::aig::blast::{add, eq, less, less_signed};
use crate::aig::{Aig, AigLit};
use crate::cfa::{Cfa, Loc, LocKind, PVar};
use crate::ts::model::{Model, ModelSystem};
use std::time::Instant;

/// A candidate invariant: at `loc`, the comparison `text` (a C expression).
#[derive(Clone, Debug)]
pub struct Candidate {
    pub loc: Loc,
    pub text: String,
    /// "Not at `loc`, or the comparison holds", over the model's latches.
    pub lit: AigLit,
}

/// A program variable's name as a C identifier (the part after the function prefix).
pub fn c_name(name: &str) -> String {
    name.rsplit("::")
        .next()
        .unwrap_or(name)
        .replace(['#', '[', ']'], "_")
}

/// Which templates to instantiate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Templates {
    /// Comparisons of a variable with 0 and of two variables.
    Comparisons,
    /// Sums of two variables equal to a variable or to another sum.
    Sums,
}

/// The instances of `templates` over the state variables, each with its C text (shared by all
/// locations).
fn instances(cfa: &Cfa, ps: &ProgramSystem, aig: &mut Aig, templates: Templates) -> Vec<Instance> {
    let vars: Vec<StateVar> = ps
        .state
        .iter()
        .map(|(v, bits)| {
            let info = cfa.var(*v);
            let nodes: Vec<AigLit> = bits.iter().map(|&j| ps.model.latches[j].node).collect();
            (c_name(&info.name), info.ty.signed, nodes, *v)
        })
        .filter(|(_, _, bits, _)| bits.len() > 1)
        .collect();
    let mut out = Vec::new();
    let mut push = |text: String, lit: AigLit, vars: &[PVar]| {
        if !lit.is_const() {
            out.push(Instance {
                text,
                lit,
                vars: vars.to_vec(),
            });
        }
    };
    if templates == Templates::Sums {
        sums(&vars, aig, &mut push);
        return out;
    }
    for (x, signed, a, v) in &vars {
        let zero = vec![AigLit::FALSE; a.len()];
        push(format!("{x} == 0"), eq(aig, a, &zero), &[*v]);
        if *signed {
            push(format!("{x} > 0"), less_signed(aig, &zero, a, false), &[*v]);
            push(format!("{x} >= 0"), less_signed(aig, &zero, a, true), &[*v]);
        } else {
            push(format!("{x} > 0"), !eq(aig, a, &zero), &[*v]);
        }
    }
    for (i, (x, sx, a, v)) in vars.iter().enumerate() {
        for (y, sy, b, w) in &vars[i + 1..] {
            if sx != sy || a.len() != b.len() {
                continue;
            }
            let cmp = |aig: &mut Aig, p: &[AigLit], q: &[AigLit], or_equal: bool| {
                if *sx {
                    less_signed(aig, p, q, or_equal)
                } else {
                    less(aig, p, q, or_equal)
                }
            };
            let both = [*v, *w];
            push(format!("{x} == {y}"), eq(aig, a, b), &both);
            push(format!("{x} < {y}"), cmp(aig, a, b, false), &both);
            push(format!("{x} <= {y}"), cmp(aig, a, b, true), &both);
            push(format!("{y} < {x}"), cmp(aig, b, a, false), &both);
            push(format!("{y} <= {x}"), cmp(aig, b, a, true), &both);
        }
    }
    out
}

/// A template instance: a comparison over the latches of some program variables.
struct Instance {
    text: String,
    lit: AigLit,
    vars: Vec<PVar>,
}

/// A state variable: its C name, signedness, latch nodes and program variable.
type StateVar = (String, bool, Vec<AigLit>, PVar);

/// `x + y == z` and `x + y == z + w` (in the type's wrapping arithmetic).
fn sums(vars: &[StateVar], aig: &mut Aig, push: &mut impl FnMut(String, AigLit, &[PVar])) {
    let groups = {
        let mut g: Vec<Vec<usize>> = Vec::new();
        for (i, (_, s, a, _)) in vars.iter().enumerate() {
            match g
                .iter_mut()
                .find(|g| vars[g[0]].1 == *s && vars[g[0]].2.len() == a.len())
            {
                Some(g) => g.push(i),
                None => g.push(vec![i]),
            }
        }
        g
    };
    for g in groups
        .iter()
        .filter(|g| g.len() >= 3 && g.len() <= MAX_SUM_VARS)
    {
        let pairs: Vec<(usize, usize)> = g
            .iter()
            .enumerate()
            .flat_map(|(k, &i)| g[k + 1..].iter().map(move |&j| (i, j)))
            .collect();
        let sums: Vec<Vec<AigLit>> = pairs
            .iter()
            .map(|&(i, j)| add(aig, &vars[i].2, &vars[j].2))
            .collect();
        for (p, &(i, j)) in pairs.iter().enumerate() {
            for &z in g.iter().filter(|&&z| z != i && z != j) {
                let e = eq(aig, &sums[p], &vars[z].2);
                let text = format!("{} + {} == {}", vars[i].0, vars[j].0, vars[z].0);
                push(text, e, &[vars[i].3, vars[j].3, vars[z].3]);
            }
            for (q, &(k, l)) in pairs.iter().enumerate().skip(p + 1) {
                if k == i || k == j || l == i || l == j {
                    continue;
                }
                let e = eq(aig, &sums[p], &sums[q]);
                let text = format!(
                    "{} + {} == {} + {}",
                    vars[i].0, vars[j].0, vars[k].0, vars[l].0
                );
                push(text, e, &[vars[i].3, vars[j].3, vars[k].3, vars[l].3]);
            }
        }
    }
}

/// Sums are tried among at most this many variables of one type.
const MAX_SUM_VARS: usize = 8;

/// The words of a program system: its state variables and its havoc inputs.
pub fn words(ps: &ProgramSystem) -> Words {
    Words {
        latches: ps.state.iter().map(|(_, bits)| bits.clone()).collect(),
        inputs: ps.havocs.iter().map(|h| h.inputs.clone()).collect(),
    }
}

/// "The program counter is at `l`", over the pc latches.
fn at(ps: &ProgramSystem, aig: &mut Aig, l: usize) -> AigLit {
    let node = |j: usize| ps.model.latches[j].node;
    match ps.pc {
        PcEncoding::Binary => {
            let bits: Vec<AigLit> = ps
                .pc_latches
                .iter()
                .enumerate()
                .map(|(k, &j)| node(j).xor_sign((l >> k) & 1 == 0))
                .collect();
            aig.and_all(bits)
        }
        PcEncoding::OneHot => node(ps.pc_latches[l]),
    }
}

/// How many candidates the simulation looked at and refuted.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimStats {
    /// Location-guarded instances before the simulation.
    pub instances: usize,
    /// Instances that some simulated state refuted.
    pub refuted: usize,
    /// Simulation steps (of 64 runs each).
    pub steps: usize,
}

/// The candidates of a program system from `templates` that random simulation
/// ([`super::simulate`], up to `sim_steps` steps, until `deadline`) does not refute, at most
/// `max` of them, taken from the locations in turn. Their nodes are added to `model`, a copy
/// of the system's model.
pub fn candidates(
    cfa: &Cfa,
    ps: &ProgramSystem,
    model: &mut Model,
    templates: Templates,
    max: usize,
    sim_steps: usize,
    deadline: Instant,
) -> (Vec<Candidate>, SimStats) {
    let mut aig = std::mem::take(&mut model.aig);
    let cmps = instances(cfa, ps, &mut aig, templates);
    let locs: Vec<(usize, AigLit)> = (0..cfa.locations.len())
        .filter(|&l| {
            cfa.locations[l].kind == LocKind::Normal
                && cfa.edges.iter().any(|e| e.from.index() == l)
        })
        .map(|l| (l, at(ps, &mut aig, l)))
        .collect();
    model.aig = aig;
    let live = crate::cfa::live_variables(cfa);
    let mut alive: Vec<Vec<usize>> = locs
        .iter()
        .map(|&(l, _)| {
            (0..cmps.len())
                .filter(|&c| cmps[c].vars.iter().all(|v| live[l][v.index()]))
                .collect()
        })
        .collect();
    let mut stats = SimStats {
        instances: alive.iter().map(Vec::len).sum(),
        ..SimStats::default()
    };
    let mut sim = Simulation::new(model, &words(ps), 0x5eed);
    stats.steps = simulate::run(&mut sim, sim_steps, deadline, |sim, valid| {
        for ((_, here), alive) in locs.iter().zip(alive.iter_mut()) {
            let mask = sim.lit(*here) & valid;
            if mask != 0 {
                alive.retain(|&c| !sim.lit(cmps[c].lit) & mask == 0);
            }
        }
    });
    stats.refuted = stats.instances - alive.iter().map(Vec::len).sum::<usize>();
    let mut aig = std::mem::take(&mut model.aig);
    let mut out = Vec::new();
    let mut next = vec![0usize; locs.len()];
    while out.len() < max {
        let before = out.len();
        for (k, (l, here)) in locs.iter().enumerate() {
            if out.len() >= max {
                break;
            }
            if let Some(&c) = alive[k].get(next[k]) {
                next[k] += 1;
                out.push(Candidate {
                    loc: Loc(*l as u32),
                    text: cmps[c].text.clone(),
                    lit: aig.or(!*here, cmps[c].lit),
                });
            }
        }
        if out.len() == before {
            break;
        }
    }
    model.aig = aig;
    (out, stats)
}

/// The bit-level system of `model` with `lits` (invariants over its latches) added as
/// invariant constraints, with its own variable maps; see [`ProgramSystem::swap_system`].
pub fn constrained(model: &Model, lits: &[AigLit]) -> ModelSystem {
    let mut model = model.clone();
    model.constraints.extend_from_slice(lits);
    model.to_system()
}

impl ProgramSystem {
    /// Exchange the bit-level system (and its variable maps) with `other`, e.g. to decode a
    /// path of the constrained system.
    pub fn swap_system(&mut self, other: &mut ModelSystem) {
        std::mem::swap(&mut self.sys, &mut other.sys);
        std::mem::swap(&mut self.latch_var, &mut other.latch_var);
        std::mem::swap(&mut self.input_var, &mut other.input_var);
    }
}
