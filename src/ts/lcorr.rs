//! Latch correspondence: latches that are equal (or complementary) to another latch, or
//! constant, in every reachable state, proved by induction and merged (van Eijk, "Sequential
//! equivalence checking based on structural similarities"; ABC's `lcorr` and the latch part of
//! its `scorr`).
//!
//! A C program's system has many such latches: the bits of variables that only ever hold a
//! few values, flags that mirror each other, the high bits of counters that stay 0. None of
//! them can be seen combinationally (SAT sweeping, [`super::sweep`], proves only what holds for
//! every valuation of the latches); all of them need the initial state, so only latches with a
//! reset value take part.
//!
//! **How.** Random simulation from the initial states ([`super::simulate`]) gives each latch a
//! signature: its values, complemented when its reset value is 1, so that every candidate
//! equivalence already holds in the initial state. Latches with equal signatures form a class
//! headed by its first latch; latches whose signature is all zeros form the class of the
//! constant (equal to their reset value). Then, as long as one query finds a counterexample:
//! assuming every candidate equivalence in the current state and the constraints, is there a
//! step after which one fails? A model splits every class by the members' values in the next
//! state (those that disagree with the head form a new class). When no such step exists the
//! candidates are inductive, hence invariants of every path: they hold initially, and a step
//! from a state where they hold (and the constraints) keeps them.
//!
//! **Soundness.** Only the final, inductive set is used, and only whole: a run stopped by its
//! budget proves nothing and merges nothing. Each merged latch's readers read its
//! representative instead; the latch itself stays in the model (same indices) but drops out of
//! the system's cone. The merged model has exactly the original's paths projected on the other
//! latches, so an invariant of it is one of the original once the equivalences are added
//! (they are inductive), and a counterexample re-steps on the original ([`crate::engine::preprocess`]).

use super::model::{Model, Words};
use super::simulate::Simulation;
use super::sweep;
use crate::aig::AigLit;
use crate::cnf::Tseitin;
use crate::sat::{Backend, Interrupter, Lit, SolveResult, Solver};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Steps of the 64-lane simulation that give the first classes.
const SIM_STEPS: usize = 256;

/// What a merged latch equals in every reachable state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    /// A constant.
    Const(bool),
    /// Latch `j`'s value, complemented when the flag says so.
    Latch(usize, bool),
}

/// What latch correspondence did.
#[derive(Clone, Debug, Default)]
pub struct CorrStats {
    /// Latches equal to another latch (or its complement), and constant latches.
    pub merged: usize,
    pub constants: usize,
    /// Induction queries, and the time taken.
    pub sat_calls: usize,
    /// Whether the budget or an interrupt stopped the proof (nothing is merged then).
    pub stopped: bool,
    pub time: Duration,
}

/// The proved equivalences and the merged model.
pub struct Correspondence {
    pub model: Model,
    /// What each latch of the model was merged into (`None`: kept).
    pub repr: Vec<Option<Repr>>,
}

/// A candidate class: its head (`None`: the constant) and members, each a latch index.
/// Every value is read normalised (complemented when the latch's reset value is 1), and the
/// candidate is that all members' normalised values equal the head's (or 0).
struct Class {
    head: Option<usize>,
    members: Vec<usize>,
}

/// Find and merge the latches of `model` that are equal, complementary or constant in every
/// reachable state, among those that `eligible` admits and that have a reset value; within
/// `budget`. `None` when nothing was proved (nothing found, the budget ran out, or
/// `interrupter` was raised).
pub fn correspond(
    model: &Model,
    words: &Words,
    eligible: &dyn Fn(usize) -> bool,
    backend: Backend,
    budget: Duration,
    interrupter: &Interrupter,
) -> (Option<Correspondence>, CorrStats) {
    let start = Instant::now();
    let mut stats = CorrStats::default();
    let found = prove(
        model,
        words,
        eligible,
        backend,
        start + budget,
        interrupter,
        &mut stats,
    );
    stats.time = start.elapsed();
    (found, stats)
}

fn prove(
    model: &Model,
    words: &Words,
    eligible: &dyn Fn(usize) -> bool,
    backend: Backend,
    deadline: Instant,
    interrupter: &Interrupter,
    stats: &mut CorrStats,
) -> Option<Correspondence> {
    let latches: Vec<usize> = (0..model.latches.len())
        .filter(|&j| model.latches[j].reset.is_some() && eligible(j))
        .collect();
    let mut classes = candidates(model, words, &latches);
    if classes.is_empty() {
        return None;
    }
    let proved = crate::sat::with_deadline(interrupter, deadline, |intr| {
        let mut ind = Induction::new(model, backend.create(intr));
        loop {
            stats.sat_calls += 1;
            match ind.counterexample(&classes) {
                Query::Inductive => return Some(classes),
                Query::Stopped => {
                    stats.stopped = true;
                    return None;
                }
                Query::Cex(next) => classes = split(classes, &|j| next[j]),
            }
            if classes.is_empty() {
                return None;
            }
        }
    });
    let classes = proved.filter(|_| !interrupter.is_interrupted())?;
    let mut repr = vec![None; model.latches.len()];
    let reset = |j: usize| model.latches[j].reset == Some(true);
    for c in &classes {
        for &j in &c.members {
            repr[j] = Some(match c.head {
                None => Repr::Const(reset(j)),
                Some(h) => Repr::Latch(h, reset(j) != reset(h)),
            });
        }
        match c.head {
            None => stats.constants += c.members.len(),
            Some(_) => stats.merged += c.members.len(),
        }
    }
    Some(Correspondence {
        model: merge(model, &repr),
        repr,
    })
}

/// The first classes, from the normalised values of `latches` along a random simulation.
fn candidates(model: &Model, words: &Words, latches: &[usize]) -> Vec<Class> {
    let mut sim = Simulation::new(model, words, 0x1c0_7700);
    let mut key: Vec<u64> = vec![0; latches.len()];
    let flip: Vec<u64> = latches
        .iter()
        .map(|&j| match model.latches[j].reset {
            Some(true) => u64::MAX,
            _ => 0,
        })
        .collect();
    for _ in 0..SIM_STEPS {
        let valid = sim.evaluate();
        for (k, &j) in latches.iter().enumerate() {
            let x = sim.lit(model.latches[j].node) ^ flip[k];
            key[k] = mix(key[k] ^ mix(x));
        }
        sim.step(valid);
    }
    let zero = (0..SIM_STEPS).fold(0u64, |k, _| mix(k ^ mix(0)));
    let mut by_key: HashMap<u64, usize> = HashMap::new();
    let mut classes: Vec<Class> = vec![Class {
        head: None,
        members: Vec::new(),
    }];
    by_key.insert(zero, 0);
    for (k, &j) in latches.iter().enumerate() {
        match by_key.get(&key[k]) {
            Some(&c) => classes[c].members.push(j),
            None => {
                by_key.insert(key[k], classes.len());
                classes.push(Class {
                    head: Some(j),
                    members: Vec::new(),
                });
            }
        }
    }
    classes.retain(|c| !c.members.is_empty());
    classes
}

/// A 64-bit mixing step (splitmix64's finaliser).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The classes refined by one counterexample: `next(j)` is latch `j`'s normalised value after
/// the step. Members that disagree with their head (or with 0) form a new class of their own,
/// headed by the first of them; classes left without members are dropped.
fn split(classes: Vec<Class>, next: &dyn Fn(usize) -> bool) -> Vec<Class> {
    let mut out = Vec::with_capacity(classes.len());
    for c in classes {
        let want = c.head.is_some_and(next);
        let (stay, moved): (Vec<usize>, Vec<usize>) =
            c.members.into_iter().partition(|&j| next(j) == want);
        if !stay.is_empty() {
            out.push(Class {
                head: c.head,
                members: stay,
            });
        }
        // Within `moved`, every normalised value is `!want`: one class whenever there are two.
        if let [m, rest @ ..] = moved.as_slice() {
            if !rest.is_empty() {
                out.push(Class {
                    head: Some(*m),
                    members: rest.to_vec(),
                });
            }
        }
    }
    out
}

/// The outcome of one induction query.
enum Query {
    Inductive,
    Stopped,
    /// The normalised next-state value of each latch (by index) in a counterexample.
    Cex(Vec<bool>),
}

/// The solver of the induction queries: the next-state functions and the constraints over
/// one step, the candidates of each query behind fresh activation literals.
struct Induction<'m> {
    model: &'m Model,
    solver: Box<dyn Solver>,
    enc: Tseitin,
    /// Each latch's current and next normalised literal, once encoded.
    cur: Vec<Option<Lit>>,
    next: Vec<Option<Lit>>,
}

impl<'m> Induction<'m> {
    fn new(model: &'m Model, mut solver: Box<dyn Solver>) -> Induction<'m> {
        let mut enc = Tseitin::new();
        for &c in &model.constraints {
            let l = enc.encode(&model.aig, solver.as_mut(), c);
            solver.add_clause(&[l]);
        }
        let n = model.latches.len();
        Induction {
            model,
            solver,
            enc,
            cur: vec![None; n],
            next: vec![None; n],
        }
    }

    fn lit(&mut self, l: AigLit, j: usize) -> Lit {
        let lit = self.enc.encode(&self.model.aig, self.solver.as_mut(), l);
        lit.xor_sign(self.model.latches[j].reset == Some(true))
    }

    fn cur(&mut self, j: usize) -> Lit {
        if let Some(l) = self.cur[j] {
            return l;
        }
        let l = self.lit(self.model.latches[j].node, j);
        self.cur[j] = Some(l);
        l
    }

    fn next(&mut self, j: usize) -> Lit {
        if let Some(l) = self.next[j] {
            return l;
        }
        let l = self.lit(self.model.latches[j].next, j);
        self.next[j] = Some(l);
        l
    }

    /// A step from a state where every candidate holds (with the constraints) to one where
    /// some candidate fails, if there is one.
    fn counterexample(&mut self, classes: &[Class]) -> Query {
        let hold = self.solver.new_var().pos();
        let fail = self.solver.new_var().pos();
        let mut some_fails = vec![!fail];
        for c in classes {
            let head = c.head.map(|h| (self.cur(h), self.next(h)));
            for &j in &c.members {
                let (cur, next) = (self.cur(j), self.next(j));
                match head {
                    None => {
                        self.solver.add_clause(&[!hold, !cur]);
                        some_fails.push(next);
                    }
                    Some((hc, hn)) => {
                        self.solver.add_clause(&[!hold, !cur, hc]);
                        self.solver.add_clause(&[!hold, cur, !hc]);
                        let d = self.solver.new_var().pos();
                        self.solver.add_clause(&[!d, next, hn]);
                        self.solver.add_clause(&[!d, !next, !hn]);
                        some_fails.push(d);
                    }
                }
            }
        }
        self.solver.add_clause(&some_fails);
        let result = self.solver.solve(&[hold, fail]);
        let out = match result {
            SolveResult::Unsat => Query::Inductive,
            SolveResult::Interrupted => Query::Stopped,
            SolveResult::Sat => Query::Cex(
                (0..self.model.latches.len())
                    .map(|j| self.next[j].is_some_and(|l| self.solver.model_value(l)))
                    .collect(),
            ),
        };
        self.solver.add_clause(&[!hold]);
        self.solver.add_clause(&[!fail]);
        out
    }
}

/// The model in which every reader of a merged latch reads what it was merged into (the
/// latches and inputs keep their indices; a merged latch drops out of the system's cone).
pub fn merge(model: &Model, repr: &[Option<Repr>]) -> Model {
    let mut rep: Vec<Option<AigLit>> = vec![None; model.aig.num_vars() as usize];
    for (j, r) in repr.iter().enumerate() {
        let Some(r) = *r else { continue };
        let node = model.latches[j].node;
        // The value of `node` is the latch's value: the variable is that, complemented when
        // the node is.
        let value = match r {
            Repr::Const(b) => AigLit::FALSE.xor_sign(b),
            Repr::Latch(h, flip) => model.latches[h].node.xor_sign(flip),
        };
        rep[node.var() as usize] = Some(value.xor_sign(node.is_negated()));
    }
    let cone = model.aig.cone(&sweep::roots(model));
    sweep::rebuild(model, &cone, &rep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aig::Aig;
    use crate::ts::model::{ModelInput, ModelLatch};

    fn latch(node: AigLit, next: AigLit, reset: bool) -> ModelLatch {
        ModelLatch {
            node,
            next,
            reset: Some(reset),
            name: None,
        }
    }

    /// A 10-bit counter that starts at 0 and counts up while the input is set; `late` turns
    /// 1 (for good) when the counter reaches 1023, `mirror` is `late` complemented, `stuck`
    /// never leaves 0, and `copy` starts at 1 and follows `stuck`'s next value complemented.
    /// Simulation from the initial state never reaches 1023 (nor sets the counter's high bits),
    /// so only induction tells `late` and those bits from constants.
    fn deep_model() -> (Model, [usize; 4]) {
        let mut aig = Aig::new();
        let en = aig.input();
        let bits: Vec<AigLit> = (0..10).map(|_| aig.input()).collect();
        let (late, mirror, stuck, copy) = (aig.input(), aig.input(), aig.input(), aig.input());
        let mut carry = en;
        let mut latches = Vec::new();
        for &b in &bits {
            let next = aig.xor(b, carry);
            carry = aig.and(b, carry);
            latches.push(latch(b, next, false));
        }
        let full = aig.and_all(bits.iter().copied());
        let late_next = aig.or(late, full);
        let stuck_next = aig.and(stuck, en);
        latches.push(latch(late, late_next, false));
        latches.push(latch(mirror, !late_next, true));
        latches.push(latch(stuck, stuck_next, false));
        latches.push(latch(copy, !stuck_next, true));
        let bad = aig.and(late, stuck);
        let model = Model {
            aig,
            latches,
            inputs: vec![ModelInput {
                node: en,
                name: None,
            }],
            constraints: Vec::new(),
            bad,
        };
        (model, [10, 11, 12, 13])
    }

    #[test]
    fn only_inductive_equivalences_are_merged() {
        let (m, [late, mirror, stuck, copy]) = deep_model();
        let (found, stats) = correspond(
            &m,
            &Words::default(),
            &|_| true,
            Backend::Batsat,
            Duration::from_secs(60),
            &Interrupter::new(),
        );
        let c = found.expect("the equivalences are inductive");
        assert!(stats.sat_calls > 1, "simulation alone separated everything");
        assert_eq!(c.repr[stuck], Some(Repr::Const(false)));
        assert_eq!(c.repr[copy], Some(Repr::Const(true)));
        // `late` and `mirror` are one class; whichever heads it, the other is its complement.
        let pair = (c.repr[late], c.repr[mirror]);
        assert!(
            pair == (None, Some(Repr::Latch(late, true)))
                || pair == (Some(Repr::Latch(mirror, true)), None),
            "{pair:?}"
        );
        assert!(c.repr[..10].iter().all(Option::is_none), "{:?}", c.repr);
        // The merged model no longer reads the merged latches.
        let ms = c.model.to_system();
        assert_eq!(ms.latch_var[stuck], None);
        assert_eq!(ms.latch_var[copy], None);
    }
}
