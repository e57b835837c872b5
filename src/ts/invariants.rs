//! Candidate invariants of a program system, and the system constrained by proven ones.
//!
//! A candidate is a template instance ([`super::templates`]) guarded by a location: "whenever
//! the program counter is at `l`, `x ≤ y`". Candidates are made at every location with outgoing
//! edges (other than the initial one), over the state variables live there (a relation over a
//! variable that is written before it is read again cannot help a proof), and only when random
//! simulation ([`super::simulate`]) reaches no state at `l` that violates them. The constants
//! of the templates are those of the program, with their neighbours `c - 1` and `c + 1`, and
//! 1 and 2. Last come bounds read off the samples: at a location with few
//! live variables, `x - a·y <= c` with `c` the largest value the sampled states give (and `>=`
//! the smallest), for factors `a` taken from the program's constants and the variables' types
//! (`c <= 255·i` bounds a sum of `i` values of type `unsigned char`). The survivors become AIG
//! literals over the latches, added to the model's AIG.
//!
//! [`constrained`] builds the bit-level system of the model with proven invariants added as
//! invariant constraints. Constraints that every reachable state satisfies remove
//! no path, so the constrained system has the same reachable goal states: a counterexample of
//! it is one of the original system, and an inductive invariant of it, conjoined with the
//! constraints, is one of the original system.

use super::program::{PcEncoding, ProgramSystem};
use super::simulate::{self, Simulation};
use super::templates::{self, Cmp, Shape, StateVar};
use crate::aig::{Aig, AigLit};
use crate::cfa::{Cfa, Loc, LocKind, PVar};
use crate::ts::model::{Model, ModelSystem};
use std::collections::{HashMap, HashSet};

/// A candidate invariant: at `loc`, the comparison `text` (a C expression).
#[derive(Clone, Debug)]
pub struct Candidate {
    pub loc: Loc,
    pub text: String,
    /// The instance in C over the variables' C names, where C can say it exactly
    /// ([`Shape::c_text`]), with the program variables it reads.
    pub c: Option<(String, Vec<PVar>)>,
    /// "Not at `loc`, or the comparison holds", over the model's latches.
    pub lit: AigLit,
    /// The template instance (over the program system's state variables).
    pub shape: Shape,
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
    /// Comparisons of a variable with a constant and of two variables.
    Comparisons,
    /// Differences of two variables against a constant, and sums of two variables equal to a
    /// variable or to another sum.
    Linear,
    /// Scaled differences `x - a·y` against the bounds the samples show (at locations with few
    /// live variables). Their proofs can be hard for the SAT solver, so they come last, after
    /// the other templates' result is safe.
    Scaled,
}

/// The state variables of a program system of 2 to 64 bits.
fn state_vars(cfa: &Cfa, ps: &ProgramSystem) -> Vec<StateVar> {
    ps.state
        .iter()
        .map(|(v, bits)| {
            let info = cfa.var(*v);
            StateVar {
                name: c_name(&info.name),
                signed: info.ty.signed,
                bits: bits.iter().map(|&j| ps.model.latches[j].node).collect(),
                pvar: *v,
            }
        })
        .filter(|v| (2..=64).contains(&v.bits.len()))
        .collect()
}

/// The constants of the program (as their terms' types read them, sign-extended) of magnitude
/// below 2^40, other than 0; when there are more than [`MAX_CONSTANTS`], that many of the
/// smallest magnitude (an array of thousands of elements has a constant per index).
fn program_constants(cfa: &Cfa) -> Vec<i128> {
    let tm = &cfa.tm;
    let mut out: Vec<i128> = Vec::new();
    for t in tm.ids() {
        let (Some(v), w) = (tm.const_value(t), tm.width(t)) else {
            continue;
        };
        if !(2..=64).contains(&w) {
            continue;
        }
        let s = if (v >> (w - 1)) & 1 == 1 {
            v as i128 - (1i128 << w)
        } else {
            v as i128
        };
        if s != 0 && s.unsigned_abs() < 1 << 40 {
            out.push(s);
        }
    }
    out.sort_unstable();
    out.dedup();
    if out.len() > MAX_CONSTANTS {
        out.sort_by_key(|c| (c.unsigned_abs(), *c < 0));
        out.truncate(MAX_CONSTANTS);
        out.sort_unstable();
    }
    out
}

/// The most program constants the templates use.
const MAX_CONSTANTS: usize = 512;

/// The constants of the templates: the program's, their neighbours, and 1 and 2; without 0,
/// which the templates have anyway.
fn template_constants(program: &[i128]) -> Vec<i128> {
    let mut out: Vec<i128> = vec![1, 2];
    out.extend(program.iter().flat_map(|&c| [c - 1, c, c + 1]));
    out.retain(|&c| c != 0);
    out.sort_unstable();
    out.dedup();
    out
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
    /// Location-guarded instances over live variables.
    pub instances: usize,
    /// Instances that some sampled state refuted.
    pub refuted: usize,
    /// Locations whose instances were not all tested (see [`MAX_EXAMINED`]).
    pub cut: usize,
}

/// States of a program system sampled by random simulation, per location.
pub struct Samples {
    vars: Vec<StateVar>,
    /// The locations that get candidates, with "the program counter is here".
    locs: Vec<(usize, AigLit)>,
    /// Distinct valuations of `vars` seen at each of `locs`.
    states: Vec<Vec<Vec<u128>>>,
    /// Simulation steps taken (of 64 runs each).
    pub steps: usize,
    /// The constants of the templates (see [`template_constants`]).
    consts: Vec<i128>,
    /// The factors of scaled differences (see [`scales`]).
    scales: Vec<i128>,
    /// Whether each program variable is live at each location.
    live: Vec<Vec<bool>>,
}

impl Samples {
    /// The state variables the samples give values of.
    pub fn vars(&self) -> &[StateVar] {
        &self.vars
    }

    /// Each sampled location with the variables live there (indices into [`Samples::vars`])
    /// and the distinct states sampled there (raw values of all the variables).
    pub fn per_location(&self) -> impl Iterator<Item = (Loc, Vec<usize>, &[Vec<u128>])> + '_ {
        self.locs.iter().zip(&self.states).map(|(&(l, _), set)| {
            let here = (0..self.vars.len())
                .filter(|&i| self.live[l][self.vars[i].pvar.index()])
                .collect();
            (Loc(l as u32), here, set.as_slice())
        })
    }

    /// Moves the location literals into `model`, a copy of the system's model or a model
    /// blasted over the same latches (see [`ProgramSystem::blast`]), for [`candidates`].
    pub fn relocate(&mut self, ps: &ProgramSystem, model: &mut Model) {
        for (l, lit) in &mut self.locs {
            *lit = at(ps, &mut model.aig, *l);
        }
    }
}

/// Sample the reachable states of a program system at every location with outgoing edges
/// (other than the initial one) by random simulation, up to `steps` steps or until `stop` says
/// so (it is polled after every step). At most [`MAX_SAMPLES`] distinct states are kept per
/// location, fewer when the states of all locations would take more than [`SAMPLE_BYTES`].
/// The location literals are added to `model`, a copy of the system's model.
pub fn sample(
    cfa: &Cfa,
    ps: &ProgramSystem,
    model: &mut Model,
    steps: usize,
    stop: &dyn Fn() -> bool,
) -> Samples {
    let vars = state_vars(cfa, ps);
    let locs: Vec<(usize, AigLit)> = (0..cfa.locations.len())
        .filter(|&l| {
            cfa.locations[l].kind == LocKind::Normal
                && cfa.edges.iter().any(|e| e.from.index() == l)
        })
        .map(|l| (l, at(ps, &mut model.aig, l)))
        .collect();
    let mut sets: Vec<HashSet<Vec<u128>>> = vec![HashSet::new(); locs.len()];
    let state_bytes = std::mem::size_of::<u128>() * vars.len().max(1) * locs.len().max(1);
    let most = (SAMPLE_BYTES / state_bytes).clamp(1, MAX_SAMPLES);
    let mut sim = Simulation::new(model, &ps.words(), 0x5eed);
    let steps = simulate::run(&mut sim, steps, stop, |sim, valid| {
        // The variables' bits in every lane, read once per step for all locations.
        let mut words: Option<Vec<Vec<u64>>> = None;
        for ((_, here), set) in locs.iter().zip(sets.iter_mut()) {
            let mask = sim.lit(*here) & valid;
            if mask == 0 || set.len() >= most {
                continue;
            }
            let words = words.get_or_insert_with(|| {
                vars.iter()
                    .map(|v| v.bits.iter().map(|&b| sim.lit(b)).collect())
                    .collect()
            });
            for lane in (0..64).filter(|&i| mask >> i & 1 == 1) {
                let vals = words
                    .iter()
                    .map(|w| {
                        w.iter()
                            .enumerate()
                            .fold(0u128, |acc, (b, &x)| acc | (((x >> lane) & 1) as u128) << b)
                    })
                    .collect();
                set.insert(vals);
            }
        }
    });
    let program = program_constants(cfa);
    Samples {
        scales: scales(&vars, &program),
        vars,
        locs,
        states: sets.into_iter().map(|s| s.into_iter().collect()).collect(),
        steps,
        consts: template_constants(&program),
        live: crate::cfa::live_variables(cfa),
    }
}

/// The candidates from `templates` over the variables live at each sampled location that no
/// sampled state refutes, at most `max` of them, taken from the locations in turn. Their nodes
/// are added to `model` (the one given to [`sample`]).
///
/// The instances of each location are made and tested lazily, a chunk (one variable's, or one
/// pair's) at a time, only as far as the turns reach, and at most [`MAX_EXAMINED`] per location;
/// `stop` is polled between chunks (the candidates found until then are returned). The
/// memory used is therefore bounded by `max` and a chunk, not by the number of instances,
/// which grows with the square of the number of variables.
pub fn candidates(
    samples: &Samples,
    model: &mut Model,
    templates: Templates,
    max: usize,
    stop: &dyn Fn() -> bool,
) -> (Vec<Candidate>, SimStats) {
    let Samples {
        vars,
        locs,
        states,
        consts,
        scales,
        live,
        ..
    } = samples;
    let here: Vec<Vec<usize>> = locs
        .iter()
        .map(|&(l, _)| {
            (0..vars.len())
                .filter(|&i| live[l][vars[i].pvar.index()])
                .collect()
        })
        .collect();
    let mut alive: Vec<Alive<'_>> = here
        .iter()
        .zip(states)
        .map(|(here, set)| {
            let chunks: Box<dyn Iterator<Item = Vec<Shape>> + '_> = match templates {
                Templates::Comparisons => Box::new(templates::comparisons(vars, here, consts)),
                Templates::Linear => Box::new(templates::linear(vars, here, consts)),
                Templates::Scaled => Box::new(std::iter::once_with(move || {
                    scaled_bounds(vars, here, set, scales)
                })),
            };
            Alive {
                chunks,
                vars,
                set,
                ready: Vec::new().into_iter(),
                examined: 0,
            }
        })
        .collect();
    let mut stats = SimStats::default();
    let mut built: HashMap<Shape, AigLit> = HashMap::new();
    let mut out = Vec::new();
    let mut progressed = true;
    while out.len() < max && progressed {
        progressed = false;
        for (k, (l, here)) in locs.iter().enumerate() {
            if out.len() >= max {
                break;
            }
            let Some(shape) = alive[k].next(&mut stats, stop) else {
                continue;
            };
            progressed = true;
            let lit = *built
                .entry(shape)
                .or_insert_with(|| shape.build(vars, &mut model.aig));
            if lit.is_const() {
                continue;
            }
            out.push(Candidate {
                loc: Loc(*l as u32),
                text: shape.text(vars),
                c: shape
                    .c_text(vars)
                    .map(|t| (t, shape.vars().iter().map(|&i| vars[i].pvar).collect())),
                lit: model.aig.or(!*here, lit),
                shape,
            });
        }
    }
    stats.cut = alive.iter().filter(|a| a.examined >= MAX_EXAMINED).count();
    (out, stats)
}

/// The instances of one location that no sampled state refutes, made chunk by chunk.
struct Alive<'s> {
    chunks: Box<dyn Iterator<Item = Vec<Shape>> + 's>,
    vars: &'s [StateVar],
    /// The sampled states of the location.
    set: &'s [Vec<u128>],
    /// The survivors of the last chunk not handed out yet.
    ready: std::vec::IntoIter<Shape>,
    /// Instances tested so far.
    examined: usize,
}

impl Alive<'_> {
    /// The next survivor: of each chunk, the instances that every sample satisfies, and of
    /// their bounds only the tightest ([`tightest`]; a chunk holds every bound of its
    /// variables). `None` when the instances are exhausted, [`MAX_EXAMINED`] were tested, or
    /// `stop` says so.
    fn next(&mut self, stats: &mut SimStats, stop: &dyn Fn() -> bool) -> Option<Shape> {
        loop {
            if let Some(s) = self.ready.next() {
                return Some(s);
            }
            if self.examined >= MAX_EXAMINED || stop() {
                return None;
            }
            let chunk = self.chunks.next()?;
            let n = chunk.len();
            self.examined += n;
            stats.instances += n;
            let (vars, set) = (self.vars, self.set);
            let keep: Vec<Shape> = chunk
                .into_iter()
                .filter(|sh| set.iter().all(|vals| sh.holds(vars, vals)))
                .collect();
            stats.refuted += n - keep.len();
            self.ready = tightest(keep, |s| *s, BOUNDS_KEPT).into_iter();
        }
    }
}

/// The most instances tested at one location for one kind of templates. Far above what
/// programs of a few dozen variables have (they test every instance), it bounds the time
/// spent on a program of thousands of variables, whose pairs run into the millions.
pub const MAX_EXAMINED: usize = 1_000_000;

/// The factors `a` of the scaled differences `x - a·y` whose bounds are read off the samples:
/// 2, 3, the magnitudes of the program's constants from 4 to 2^20, and the largest values of the variables' types of at most 16 bits
/// (a sum of `n` values of type `unsigned char` is at most `255·n`).
fn scales(vars: &[StateVar], program: &[i128]) -> Vec<i128> {
    let mut out: Vec<i128> = vec![2, 3];
    out.extend(
        program
            .iter()
            .map(|c| c.abs())
            .filter(|a| (4..=1 << 20).contains(a)),
    );
    out.extend(
        vars.iter()
            .filter(|v| v.bits.len() <= 16)
            .map(|v| v.range().1),
    );
    out.sort_unstable();
    out.dedup();
    out
}

/// The tightest bounds `x - a·y <= c` and `x - a·y >= c` that the sampled states `set` allow,
/// for every two of the variables `here` and factor `a` in `scales`; none when there are more
/// than [`templates::MAX_SUM_VARS`] variables or no samples. The samples cannot refute these;
/// Houdini decides.
fn scaled_bounds(
    vars: &[StateVar],
    here: &[usize],
    set: &[Vec<u128>],
    scales: &[i128],
) -> Vec<Shape> {
    let mut out = Vec::new();
    if here.len() > templates::MAX_SUM_VARS || set.is_empty() {
        return out;
    }
    for &x in here {
        for &y in here.iter().filter(|&&y| y != x) {
            for &a in scales {
                let d = |vals: &Vec<u128>| vars[x].value(vals[x]) - a * vars[y].value(vals[y]);
                let lo = set.iter().map(d).min().expect("samples");
                let hi = set.iter().map(d).max().expect("samples");
                out.push(Shape::Scaled(x, a, y, Cmp::Le, hi));
                out.push(Shape::Scaled(x, a, y, Cmp::Ge, lo));
            }
        }
    }
    out
}

/// The variables (or pair), factor and direction of a bound `x ⋈ c`, `x - y ⋈ c` or
/// `x - a·y ⋈ c` with `⋈` one of `<=`, `>=`, and its constant; `None` for other shapes.
fn bound(shape: &Shape) -> Option<((usize, usize, i128, Cmp), i128)> {
    match *shape {
        Shape::Const(x, op @ (Cmp::Le | Cmp::Ge), c) => Some(((x, usize::MAX, 0, op), c)),
        Shape::Diff(x, y, op @ (Cmp::Le | Cmp::Ge), c) => Some(((x, y, 1, op), c)),
        Shape::Scaled(x, a, y, op @ (Cmp::Le | Cmp::Ge), c) => Some(((x, y, a, op), c)),
        _ => None,
    }
}

/// Of the bounds among `items` (see [`bound`]), only the `keep` tightest of each variable (or
/// pair) and direction, in the order of `items`; every other item is kept. A looser bound is
/// implied by a tighter one that holds.
fn tightest<T>(items: Vec<T>, shape: impl Fn(&T) -> Shape, keep: usize) -> Vec<T> {
    let mut groups: HashMap<(usize, usize, i128, Cmp), Vec<i128>> = HashMap::new();
    for it in &items {
        if let Some((key, c)) = bound(&shape(it)) {
            groups.entry(key).or_default().push(c);
        }
    }
    // The loosest constant kept per group.
    let limit: HashMap<_, i128> = groups
        .into_iter()
        .map(|((x, y, a, op), mut cs)| {
            cs.sort_unstable();
            cs.dedup();
            if op == Cmp::Ge {
                cs.reverse();
            }
            ((x, y, a, op), cs[keep.min(cs.len()) - 1])
        })
        .collect();
    items
        .into_iter()
        .filter(|it| match bound(&shape(it)) {
            Some((key, c)) => {
                let l = limit[&key];
                if key.3 == Cmp::Le {
                    c <= l
                } else {
                    c >= l
                }
            }
            None => true,
        })
        .collect()
}

/// Of proved candidates, those not implied by a tighter proved bound at the same location.
/// The result is inductive when `proved` is: it implies every dropped candidate.
pub fn strongest(proved: Vec<Candidate>) -> Vec<Candidate> {
    let mut by_loc: std::collections::BTreeMap<Loc, Vec<Candidate>> = Default::default();
    for c in proved {
        by_loc.entry(c.loc).or_default().push(c);
    }
    by_loc
        .into_values()
        .flat_map(|cs| tightest(cs, |c| c.shape, 1))
        .collect()
}

/// How many bounds of one variable (or pair) and direction are kept as candidates: the
/// second for when the tightest is not inductive.
const BOUNDS_KEPT: usize = 2;

/// The most distinct states sampled at one location.
const MAX_SAMPLES: usize = 512;

/// The most bytes the sampled states of all locations may take together (a program of
/// thousands of variables and many locations keeps fewer than [`MAX_SAMPLES`] per location).
const SAMPLE_BYTES: usize = 256 << 20;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aig::Aig;

    fn var(aig: &mut Aig, name: &str, w: usize, signed: bool, i: u32) -> StateVar {
        StateVar {
            name: name.into(),
            signed,
            bits: (0..w).map(|_| aig.input()).collect(),
            pvar: PVar(i),
        }
    }

    /// The bounds read off the samples hold in every sample and are reached by one, in both
    /// directions, for every ordered pair and factor; with too many variables there are none.
    #[test]
    fn scaled_bounds_are_the_extremes_of_the_samples() {
        let mut aig = Aig::new();
        let vars = vec![
            var(&mut aig, "s", 32, false, 0),
            var(&mut aig, "i", 32, true, 1),
            var(&mut aig, "c", 8, false, 2),
        ];
        assert_eq!(
            scales(&vars, &[-7, 1, 1000, 1 << 21]),
            vec![2, 3, 7, 255, 1000]
        );
        // (s, i, c): s is at most 255·i; i is negative once (two's complement, 32 bits).
        let set: Vec<Vec<u128>> = vec![
            vec![0, 0, 0],
            vec![255, 1, 255],
            vec![300, 2, 45],
            vec![5, 0xffff_ffff, 7],
        ];
        let here = [0, 1, 2];
        let shapes = scaled_bounds(&vars, &here, &set, &[2, 255]);
        assert_eq!(shapes.len(), 6 * 2 * 2);
        for sh in &shapes {
            assert!(set.iter().all(|v| sh.holds(&vars, v)), "{}", sh.text(&vars));
            let Shape::Scaled(x, a, y, op, c) = *sh else {
                panic!("not a scaled difference: {sh:?}")
            };
            let tighter = match op {
                Cmp::Le => Shape::Scaled(x, a, y, op, c - 1),
                _ => Shape::Scaled(x, a, y, op, c + 1),
            };
            assert!(
                !set.iter().all(|v| tighter.holds(&vars, v)),
                "{}",
                sh.text(&vars)
            );
        }
        // 5 - 255·(-1) = 260 is the largest s - 255·i.
        assert!(shapes.iter().any(|s| s.text(&vars) == "s - 255 * i <= 260"));
        let many: Vec<usize> = (0..templates::MAX_SUM_VARS + 1).collect();
        let wide: Vec<StateVar> = many
            .iter()
            .map(|&k| var(&mut aig, "v", 8, false, k as u32))
            .collect();
        let zeros = vec![vec![0u128; many.len()]];
        assert!(scaled_bounds(&wide, &many, &zeros, &[2]).is_empty());
        assert!(scaled_bounds(&vars, &here, &[], &[2]).is_empty());
    }
}
