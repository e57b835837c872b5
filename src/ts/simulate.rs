//! Random simulation of a [`Model`], 64 runs at a time, to refute candidate invariants cheaply.
//!
//! Every AIG node holds a `u64`: bit `i` is its value in run (lane) `i`. A run starts in an
//! initial state (latches with a reset value take it, the others a random value) and takes
//! steps with random inputs. Values are drawn per *word* (a group of latches or inputs that
//! form one integer, least significant bit first) from a mix that favours small magnitudes of
//! either sign, since program guards compare with small constants far more often than a
//! uniform draw would satisfy.
//!
//! A lane restarts from a fresh initial state when its state stops changing (an absorbing
//! state such as the end of a program), when it violates a constraint, and at random (one step
//! in [`RESTART_ODDS`]), so that long loops do not hold a lane for the whole run.
//!
//! Soundness: a lane's states are reachable states of the model (initial states, then steps
//! whose constraints hold), so a literal found false in a lane's state is false in a reachable
//! state. The simulation only ever *refutes*; it proves nothing.

use super::model::{Model, Words};
use crate::aig::{AigLit, AigNode};

/// One step in this many restarts a lane at random.
const RESTART_ODDS: u64 = 128;

/// A splitmix64 generator: small, fast, and deterministic for a given seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value of `w` bits (two's complement), small of either sign more often than not.
    fn word(&mut self, w: usize) -> u128 {
        let r = self.next();
        let mask = if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        };
        let mag = |rng: &mut Rng| {
            let bits = (rng.next() % (w.min(64) as u64 + 1)) as u32;
            let m = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            (rng.next() & m) as u128
        };
        let v = match r % 8 {
            0..=2 => (r >> 8) as u128 % 9,
            3 => 0u128.wrapping_sub((r >> 8) as u128 % 4 + 1),
            4 | 5 => mag(self),
            6 => 0u128.wrapping_sub(mag(self)),
            _ => ((self.next() as u128) << 64) | self.next() as u128,
        };
        v & mask
    }
}

/// A running simulation of 64 lanes.
pub struct Simulation<'m> {
    model: &'m Model,
    vals: Vec<u64>,
    state: Vec<u64>,
    latch_groups: Vec<Vec<usize>>,
    input_groups: Vec<Vec<usize>>,
    rng: Rng,
}

/// Every index in `0..n` once: the given groups, then singletons for the rest.
fn complete(groups: &[Vec<usize>], n: usize) -> Vec<Vec<usize>> {
    let mut seen = vec![false; n];
    let mut out: Vec<Vec<usize>> = groups.to_vec();
    for g in groups {
        for &i in g {
            seen[i] = true;
        }
    }
    out.extend((0..n).filter(|&i| !seen[i]).map(|i| vec![i]));
    out
}

impl<'m> Simulation<'m> {
    /// All lanes in fresh initial states.
    pub fn new(model: &'m Model, words: &Words, seed: u64) -> Simulation<'m> {
        let m = model;
        let latch_groups = complete(&words.latches, m.latches.len());
        let input_groups = complete(&words.inputs, m.inputs.len());
        let mut sim = Simulation {
            vals: vec![0; m.aig.num_vars() as usize],
            state: vec![0; m.latches.len()],
            latch_groups,
            input_groups,
            rng: Rng(seed),
            model,
        };
        sim.restart(u64::MAX);
        sim
    }

    /// Put the lanes of `lanes` into fresh initial states.
    fn restart(&mut self, lanes: u64) {
        let m = self.model;
        for g in &self.latch_groups {
            for lane in 0..64 {
                if lanes >> lane & 1 == 0 {
                    continue;
                }
                let v = self.rng.word(g.len());
                for (b, &j) in g.iter().enumerate() {
                    let bit = match m.latches[j].reset {
                        Some(r) => r,
                        None => (v >> b) & 1 == 1,
                    };
                    let s = &mut self.state[j];
                    *s = (*s & !(1 << lane)) | ((bit as u64) << lane);
                }
            }
        }
    }

    /// Put every lane into the state `latches` (one value per latch of the model).
    pub fn set_state(&mut self, latches: &[bool]) {
        for (s, &b) in self.state.iter_mut().zip(latches) {
            *s = if b { u64::MAX } else { 0 };
        }
    }

    fn value(&self, l: AigLit) -> u64 {
        let v = self.vals[l.var() as usize];
        if l.is_negated() {
            !v
        } else {
            v
        }
    }

    /// Evaluate the graph in the current states under fresh random inputs; returns the lanes
    /// whose state and inputs satisfy the constraints. [`Simulation::lit`] then reads values.
    pub fn evaluate(&mut self) -> u64 {
        let m = self.model;
        for (j, l) in m.latches.iter().enumerate() {
            let s = self.state[j];
            self.vals[l.node.var() as usize] = if l.node.is_negated() { !s } else { s };
        }
        for g in &self.input_groups {
            let mut words = vec![0u64; g.len()];
            for lane in 0..64 {
                let v = self.rng.word(g.len());
                for (b, w) in words.iter_mut().enumerate() {
                    *w |= (((v >> b) & 1) as u64) << lane;
                }
            }
            for (&i, w) in g.iter().zip(words) {
                let node = m.inputs[i].node;
                self.vals[node.var() as usize] = if node.is_negated() { !w } else { w };
            }
        }
        for (v, n) in m.aig.nodes().iter().enumerate() {
            if let AigNode::And(a, b) = *n {
                self.vals[v] = self.value(a) & self.value(b);
            }
        }
        m.constraints
            .iter()
            .fold(u64::MAX, |acc, &c| acc & self.value(c))
    }

    /// The value of `l` in every lane, after [`Simulation::evaluate`].
    pub fn lit(&self, l: AigLit) -> u64 {
        self.value(l)
    }

    /// Move every lane to its successor (after [`Simulation::evaluate`], whose result is
    /// `valid`), restarting lanes that are stuck, invalid or chosen at random.
    pub fn step(&mut self, valid: u64) {
        let m = self.model;
        let mut changed = 0u64;
        for (j, l) in m.latches.iter().enumerate() {
            let n = self.value(l.next);
            changed |= n ^ self.state[j];
            self.state[j] = n;
        }
        let mut random = 0u64;
        for lane in 0..64 {
            if self.rng.next().is_multiple_of(RESTART_ODDS) {
                random |= 1 << lane;
            }
        }
        self.restart(!changed | !valid | random);
    }
}

/// Run the simulation for at most `steps` steps or until `stop` says so (polled before every
/// step), calling `visit` with the simulation and its valid lanes after each evaluation.
/// Returns the steps taken.
pub fn run(
    sim: &mut Simulation<'_>,
    steps: usize,
    stop: &dyn Fn() -> bool,
    mut visit: impl FnMut(&Simulation<'_>, u64),
) -> usize {
    for k in 0..steps {
        if stop() {
            return k;
        }
        let valid = sim.evaluate();
        visit(sim, valid);
        sim.step(valid);
    }
    steps
}
