//! SAT sweeping of a model's combinational logic: AND gates that compute the same function
//! of the latches and inputs (or its complement, or a constant) are merged, and the model is
//! rebuilt over the merged graph.
//!
//! Bit-blasting a program gives many gates that are equal as functions but not as structures
//! (the same comparison reached through different adders, a guard and its copy inside a
//! longer one), which structural hashing cannot see. Every query of an engine loads the cones
//! it needs, so such duplicates make every query larger.
//!
//! **How.** Every node in the cone of the next-state functions, the constraints and the bad
//! literal gets a signature: its values under patterns of the latches and inputs, some
//! uniformly random, most from the model's random simulation ([`super::simulate`]).
//! Nodes with equal signatures (up to complement; the constant's is all zeros) form candidate
//! classes. In topological order, each member of a class is checked against the class's first
//! member with two SAT queries on the original graph; a proof merges it (and the equivalence
//! is added to the solver, which helps later queries), a counterexample becomes a new
//! simulation pattern that splits the classes it refutes. Passes repeat until no
//! counterexample is found or the time budget is spent; merges proved until then are kept.
//!
//! **Soundness.** Only proved equivalences are merged, and they hold for *every* valuation of
//! the latches and inputs, whatever the reachable states: the rebuilt model has the same
//! latches (same indices, reset values and names), the same inputs, and next-state functions,
//! constraints and bad literal that are equal as functions to the original ones. Its paths are
//! therefore exactly the original's, valuation for valuation of latches and inputs; only the
//! gates in between differ (see [`super::preprocess`] for how verdicts are carried back).

use super::model::Words;
use super::model::{Model, ModelInput, ModelLatch};
use super::simulate::{Rng, Simulation};
use crate::aig::{Aig, AigLit, AigNode};
use crate::cnf::Tseitin;
use crate::sat::{Backend, Interrupter, Lit, SolveResult, Solver};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Words (of 64 patterns) of uniformly random valuations before the first pass.
const RANDOM_WORDS: usize = 4;
/// Words of valuations from steps of the model's random simulation (reachable states, values
/// drawn per word with small magnitudes favoured) before the first pass. Uniform valuations
/// alone make every comparison with a constant look constant.
const SIMULATED_WORDS: usize = 28;

/// What sweeping did.
#[derive(Clone, Debug, Default)]
pub struct SweepStats {
    /// AND gates in the cone of the model's roots, before and after.
    pub ands_before: usize,
    pub ands_after: usize,
    /// Nodes merged into an equivalent one (or a constant).
    pub merged: usize,
    /// SAT queries, and how many of them found a counterexample.
    pub sat_calls: usize,
    pub refuted: usize,
    /// Whether the time budget (or an interrupt) stopped sweeping before every class was
    /// checked.
    pub stopped: bool,
    pub time: Duration,
}

/// The roots whose cones matter: next-state functions, constraints, the bad literal.
pub(super) fn roots(model: &Model) -> Vec<AigLit> {
    let mut r: Vec<AigLit> = model.latches.iter().map(|l| l.next).collect();
    r.extend(model.constraints.iter().copied());
    r.push(model.bad);
    r
}

/// The AND gates among the nodes of `cone`.
fn ands(aig: &Aig, cone: &[u32]) -> usize {
    cone.iter()
        .filter(|&&v| matches!(aig.node(v), AigNode::And(..)))
        .count()
}

/// Per-node signatures: a running hash of the node's values under every round of patterns so
/// far, complemented so that its first pattern is 0 (so a node and its complement agree).
/// Equal value sequences give equal keys; unequal ones that collide only make a candidate
/// pair that SAT refutes.
#[derive(Default)]
struct Signatures {
    key: Vec<u128>,
    flip: Vec<bool>,
}

impl Signatures {
    /// One more round of 64 patterns, simulated from `input` (a word per input variable).
    fn add_word(&mut self, aig: &Aig, mut input: impl FnMut(u32) -> u64) {
        let n = aig.num_vars() as usize;
        let mut vals = vec![0u64; n];
        for v in 0..n {
            vals[v] = match aig.node(v as u32) {
                AigNode::Const => 0,
                AigNode::Input => input(v as u32),
                AigNode::And(a, b) => lit_word(&vals, a) & lit_word(&vals, b),
            };
        }
        if self.key.is_empty() {
            self.flip = vals.iter().map(|x| x & 1 == 1).collect();
            self.key = vec![0; n];
        }
        for ((k, &f), &x) in self.key.iter_mut().zip(&self.flip).zip(&vals) {
            let x = if f { !x } else { x };
            let lo = mix(*k as u64 ^ x, 0x9e37_79b9_7f4a_7c15);
            let hi = mix((*k >> 64) as u64 ^ x, 0xc2b2_ae3d_27d4_eb4f);
            *k = ((hi as u128) << 64) | lo as u128;
        }
    }

    /// The key of `var` and whether its values were complemented for it.
    fn key(&self, var: u32) -> (u128, bool) {
        (self.key[var as usize], self.flip[var as usize])
    }
}

/// A 64-bit mixing step (the finaliser of splitmix64 after adding `salt`).
fn mix(x: u64, salt: u64) -> u64 {
    let mut z = x.wrapping_add(salt);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The value of `l` in a word of node values.
fn lit_word(word: &[u64], l: AigLit) -> u64 {
    let x = word[l.var() as usize];
    if l.is_negated() {
        !x
    } else {
        x
    }
}

/// Set bit `k` of the word of every node of `cone` (in topological order) to its value under
/// `inputs` (a value per input variable); nodes outside the cone are never compared.
fn set_bit(aig: &Aig, cone: &[u32], word: &mut [u64], k: usize, inputs: &[bool]) {
    for &var in cone {
        let v = var as usize;
        let b = match aig.node(var) {
            AigNode::Const => false,
            AigNode::Input => inputs[v],
            AigNode::And(a, b) => (lit_word(word, a) & lit_word(word, b)) >> k & 1 == 1,
        };
        word[v] = (word[v] & !(1 << k)) | ((b as u64) << k);
    }
}

/// The merges proved so far: `rep[v]` is the literal (of a smaller variable) that node `v`
/// equals, if any.
struct Sweeper<'m> {
    aig: &'m Aig,
    solver: Box<dyn Solver>,
    enc: Tseitin,
    rep: Vec<Option<AigLit>>,
    stats: SweepStats,
}

/// The signatures of a sweep's start: random words, then words of simulated runs of the model
/// from its initial states (so that nodes equal only on reachable states share a class).
fn initial_signatures(
    model: &Model,
    words: &Words,
    rng: &mut Rng,
    interrupter: &Interrupter,
) -> Signatures {
    let aig = &model.aig;
    let mut sigs = Signatures::default();
    for _ in 0..RANDOM_WORDS {
        sigs.add_word(aig, |_| rng.next());
    }
    let mut sim = Simulation::new(model, words, 0x5eed);
    for _ in 0..SIMULATED_WORDS {
        if interrupter.is_interrupted() {
            break;
        }
        let valid = sim.evaluate();
        sigs.add_word(aig, |v| sim.lit(AigLit::new(v, false)));
        sim.step(valid);
    }
    sigs
}

/// What one pass of the sweep over the cone ended with.
enum Pass {
    /// No candidate pair was told apart: the classes are final.
    Final,
    /// The budget ran out or the run was interrupted.
    Stopped,
    /// `k` counterexamples (1 to 64), bit `i` of each node's word its value under the `i`-th.
    Refuted(Vec<u64>, usize),
}

enum Check {
    Equal,
    /// A valuation of the graph's inputs under which the two differ.
    Differ(Vec<bool>),
    Stopped,
}

impl Sweeper<'_> {
    /// One pass over the cone in topological order: each node not yet merged is checked
    /// against the first node of its signature class, unless a counterexample of this pass
    /// already tells them apart; equal nodes are merged, and the pass ends at 64
    /// counterexamples.
    fn pass(&mut self, sigs: &Signatures, cone: &[u32], inputs: &[u32]) -> Pass {
        let aig = self.aig;
        // Classes by signature; the constant node heads the class of all-zero signatures.
        let mut first: HashMap<u128, (u32, bool)> = HashMap::new();
        first.insert(sigs.key(0).0, (0, false));
        // This pass's counterexamples, one bit each: a candidate pair they already tell
        // apart needs no query.
        let mut found = vec![0u64; aig.num_vars() as usize];
        let mut k = 0;
        for &v in cone {
            if self.rep[v as usize].is_some() {
                continue;
            }
            let (key, flip) = sigs.key(v);
            let Some(&(r, rflip)) = first.get(&key) else {
                first.insert(key, (v, flip));
                continue;
            };
            if aig.node(v) == AigNode::Input {
                continue;
            }
            let target = AigLit::new(r, flip != rflip);
            let told_apart = found[v as usize] ^ lit_word(&found, target);
            if k > 0 && told_apart & (u64::MAX >> (64 - k)) != 0 {
                continue;
            }
            match self.check(AigLit::new(v, false), target, inputs) {
                Check::Equal => {
                    self.rep[v as usize] = Some(target);
                    self.stats.merged += 1;
                }
                Check::Differ(cex) => {
                    set_bit(aig, cone, &mut found, k, &cex);
                    k += 1;
                    if k == 64 {
                        break;
                    }
                }
                Check::Stopped => return Pass::Stopped,
            }
        }
        if k == 0 {
            Pass::Final
        } else {
            Pass::Refuted(found, k)
        }
    }

    fn lit(&mut self, l: AigLit) -> Lit {
        self.enc.encode(self.aig, self.solver.as_mut(), l)
    }

    /// Whether `a` and `b` are equal for every valuation of the graph's inputs.
    fn check(&mut self, a: AigLit, b: AigLit, inputs: &[u32]) -> Check {
        let (la, lb) = (self.lit(a), self.lit(b));
        for assume in [[la, !lb], [!la, lb]] {
            self.stats.sat_calls += 1;
            match self.solver.solve(&assume) {
                SolveResult::Unsat => {}
                SolveResult::Interrupted => return Check::Stopped,
                SolveResult::Sat => {
                    self.stats.refuted += 1;
                    let mut cex = vec![false; self.aig.num_vars() as usize];
                    for &v in inputs {
                        if let Some(l) = self.enc.lookup(v) {
                            cex[v as usize] = self.solver.model_value(l);
                        }
                    }
                    return Check::Differ(cex);
                }
            }
        }
        self.solver.add_clause(&[!la, lb]);
        self.solver.add_clause(&[la, !lb]);
        Check::Equal
    }
}

/// Sweep `model` for at most `budget` (or until `interrupter` is raised), with `backend` as the
/// solver. Returns the rebuilt model and what was done; the model unchanged (nothing merged)
/// when `interrupter` is raised, since the run that asked for it is then over.
pub fn sweep(
    model: &Model,
    words: &Words,
    backend: Backend,
    budget: Duration,
    interrupter: &Interrupter,
) -> (Model, SweepStats) {
    let start = Instant::now();
    let aig = &model.aig;
    let cone = aig.cone(&roots(model));
    let inputs: Vec<u32> = cone
        .iter()
        .copied()
        .filter(|&v| aig.node(v) == AigNode::Input)
        .collect();
    let ands_before = ands(aig, &cone);
    let mut rng = Rng(0x5eed_5eed);
    let mut sigs = initial_signatures(model, words, &mut rng, interrupter);
    let rep = crate::sat::with_deadline(interrupter, start + budget, |intr| {
        let mut sw = Sweeper {
            aig,
            solver: backend.create(intr),
            enc: Tseitin::new(),
            rep: vec![None; aig.num_vars() as usize],
            stats: SweepStats {
                ands_before,
                ..SweepStats::default()
            },
        };
        loop {
            match sw.pass(&sigs, &cone, &inputs) {
                Pass::Final => break,
                Pass::Stopped => {
                    sw.stats.stopped = true;
                    break;
                }
                // The pass's counterexamples become a round, the rest of it random patterns
                // (so that every bit of every node is a value under one valuation of the
                // inputs).
                Pass::Refuted(found, k) => {
                    let used = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
                    sigs.add_word(aig, |v| (found[v as usize] & used) | (rng.next() & !used));
                }
            }
        }
        (sw.rep, sw.stats)
    });
    let (rep, mut stats) = rep;
    if interrupter.is_interrupted() {
        // The run is over: the model as it is, without the cost of rebuilding it.
        stats.stopped = true;
        stats.merged = 0;
        stats.ands_after = stats.ands_before;
        stats.time = start.elapsed();
        return (model.clone(), stats);
    }
    let swept = rebuild(model, &cone, &rep);
    stats.ands_after = ands(&swept.aig, &swept.aig.cone(&roots(&swept)));
    stats.time = start.elapsed();
    (swept, stats)
}

/// The model over a fresh graph in which each merged node is replaced by its representative;
/// `cone` is the cone of the model's roots, in topological order.
pub(super) fn rebuild(model: &Model, cone: &[u32], rep: &[Option<AigLit>]) -> Model {
    let old = &model.aig;
    let mut aig = Aig::new();
    let mut map: Vec<AigLit> = vec![AigLit::FALSE; old.num_vars() as usize];
    // Latches and inputs first, in their order, so that they keep their indices.
    let latches: Vec<AigLit> = model.latches.iter().map(|_| aig.input()).collect();
    let inputs: Vec<AigLit> = model.inputs.iter().map(|_| aig.input()).collect();
    for (l, &n) in model.latches.iter().zip(&latches) {
        map[l.node.var() as usize] = n.xor_sign(l.node.is_negated());
    }
    for (i, &n) in model.inputs.iter().zip(&inputs) {
        map[i.node.var() as usize] = n.xor_sign(i.node.is_negated());
    }
    let m = |map: &[AigLit], l: AigLit| map[l.var() as usize].xor_sign(l.is_negated());
    for &v in cone {
        if let Some(r) = rep[v as usize] {
            map[v as usize] = m(&map, r);
        } else if let AigNode::And(a, b) = old.node(v) {
            let (a, b) = (m(&map, a), m(&map, b));
            map[v as usize] = aig.and(a, b);
        }
    }
    Model {
        latches: model
            .latches
            .iter()
            .zip(&latches)
            .map(|(l, &node)| ModelLatch {
                node,
                next: m(&map, l.next),
                reset: l.reset,
                name: l.name.clone(),
            })
            .collect(),
        inputs: model
            .inputs
            .iter()
            .zip(&inputs)
            .map(|(i, &node)| ModelInput {
                node,
                name: i.name.clone(),
            })
            .collect(),
        constraints: model.constraints.iter().map(|&c| m(&map, c)).collect(),
        bad: m(&map, model.bad),
        aig,
    }
}
