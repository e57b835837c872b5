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
use crate::aig::blast::{add, eq, less, less_signed};
use crate::aig::{Aig, AigLit};
use crate::cfa::{Cfa, Loc, LocKind};
use crate::ts::model::{Model, ModelSystem};

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
fn instances(
    cfa: &Cfa,
    ps: &ProgramSystem,
    aig: &mut Aig,
    templates: Templates,
) -> Vec<(String, AigLit)> {
    let vars: Vec<(String, bool, Vec<AigLit>)> = ps
        .state
        .iter()
        .map(|(v, bits)| {
            let info = cfa.var(*v);
            let nodes = bits.iter().map(|&j| ps.model.latches[j].node).collect();
            (c_name(&info.name), info.ty.signed, nodes)
        })
        .filter(|(_, _, bits): &(String, bool, Vec<AigLit>)| bits.len() > 1)
        .collect();
    let mut out = Vec::new();
    if templates == Templates::Sums {
        sums(&vars, aig, &mut out);
        out.retain(|(_, l)| !l.is_const());
        return out;
    }
    for (x, signed, a) in &vars {
        let zero = vec![AigLit::FALSE; a.len()];
        out.push((format!("{x} == 0"), eq(aig, a, &zero)));
        if *signed {
            out.push((format!("{x} > 0"), less_signed(aig, &zero, a, false)));
            out.push((format!("{x} >= 0"), less_signed(aig, &zero, a, true)));
        } else {
            out.push((format!("{x} > 0"), !eq(aig, a, &zero)));
        }
    }
    for (i, (x, sx, a)) in vars.iter().enumerate() {
        for (y, sy, b) in &vars[i + 1..] {
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
            out.push((format!("{x} == {y}"), eq(aig, a, b)));
            out.push((format!("{x} < {y}"), cmp(aig, a, b, false)));
            out.push((format!("{x} <= {y}"), cmp(aig, a, b, true)));
            out.push((format!("{y} < {x}"), cmp(aig, b, a, false)));
            out.push((format!("{y} <= {x}"), cmp(aig, b, a, true)));
        }
    }
    out.retain(|(_, l)| !l.is_const());
    out
}

/// `x + y == z` and `x + y == z + w` (in the type's wrapping arithmetic).
fn sums(vars: &[(String, bool, Vec<AigLit>)], aig: &mut Aig, out: &mut Vec<(String, AigLit)>) {
    let groups = {
        let mut g: Vec<Vec<usize>> = Vec::new();
        for (i, (_, s, a)) in vars.iter().enumerate() {
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
                out.push((format!("{} + {} == {}", vars[i].0, vars[j].0, vars[z].0), e));
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
                out.push((text, e));
            }
        }
    }
}

/// Sums are tried among at most this many variables of one type.
const MAX_SUM_VARS: usize = 8;

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

/// The candidates of a program system from `templates` (at most `max`). Their nodes are added to
/// `model`, a copy of the system's model.
pub fn candidates(
    cfa: &Cfa,
    ps: &ProgramSystem,
    model: &mut Model,
    templates: Templates,
    max: usize,
) -> Vec<Candidate> {
    let mut aig = std::mem::take(&mut model.aig);
    let cmps = instances(cfa, ps, &mut aig, templates);
    let mut out = Vec::new();
    'locs: for (l, info) in cfa.locations.iter().enumerate() {
        let has_out = cfa.edges.iter().any(|e| e.from.index() == l);
        if info.kind != LocKind::Normal || !has_out {
            continue;
        }
        let here = at(ps, &mut aig, l);
        for (text, c) in &cmps {
            if out.len() >= max {
                break 'locs;
            }
            out.push(Candidate {
                loc: Loc(l as u32),
                text: text.clone(),
                lit: aig.or(!here, *c),
            });
        }
    }
    model.aig = aig;
    out
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
