//! The IC3 algorithm once (Bradley, "SAT-Based Model Checking without Unrolling"; Eén,
//! Mishchenko, Brayton, "Efficient Implementation of Property Directed Reachability"), with
//! what differs between its variants behind the hooks of [`Ic3`], as pono's IC3 base class
//! has its variants override a few methods.
//!
//! [`run`] is the main loop: rounds at levels `k = 1, 2, …`, each blocking the goals at `k`
//! through the obligation queue ([`Queue`]), then propagating lemmas and checking for a level
//! that became empty (termination, [`super::propagate`]). Blocking one obligation is the same
//! in every variant: skip it when the frames already exclude it, else ask the relative-induction
//! query; a failing query gives a predecessor (a new obligation one level lower, or a
//! counterexample when it is initial), a passing one a proof that the variant generalises
//! ([`super::mic`] is MIC with CTGs, written once) and stores as a lemma.

use super::{Frames, ObId, Order, Queue};
use crate::engine::Interrupted;
use std::time::{Duration, Instant};

/// The answer of a relative-induction query.
pub enum Query<P, M> {
    /// The cube is inductive relative to the frame below; `P` is what the proof needs (a core).
    Holds(P),
    /// It is not; `M` is the model's predecessor (its values, or where to read them).
    Fails(M),
}

/// What a failing query's predecessor is.
pub enum Pred<O, C> {
    /// A new obligation, one level below the one it leads to.
    Obligation(O),
    /// An initial state: the counterexample it starts.
    Initial(C),
}

/// When obligations are tried again one level up within a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retry {
    /// After they were blocked below the top level.
    pub blocked: bool,
    /// When the frames already excluded them below the top level.
    pub excluded: bool,
}

/// The hooks of an IC3 variant: everything the template in this module does not know.
///
/// - **Frame layout**: [`Ic3::frames`] has one place (PDR: one sequence of frames) or one
///   place per location (IC3CFA); the template reads lemmas by place and level only.
/// - **Cubes** are sorted vectors of [`Ic3::Lit`] (latch literals, word-level atoms); an
///   obligation ([`Ic3::Ob`]) carries one with whatever else the variant needs (a location, the
///   obligation it leads to, how often it was blocked), and its depth is kept by the queue.
/// - **The relative-induction query** ([`Ic3::query`]) and **predecessor extraction with
///   lifting** ([`Ic3::predecessor`]): PDR asks one solver per level and lifts the model's
///   state; IC3CFA asks one query per incoming edge and takes the exact pre-image along it.
/// - **Generalisation** ([`Ic3::generalise`]), a strategy of the variant built on
///   [`super::mic`]: PDR runs MIC with CTGs and `down`; IC3CFA runs it per edge, or genBinary,
///   with contexts, and unites the edges' results.
/// - **The certificate** ([`Ic3::invariant`]) and **the counterexample**
///   ([`Ic3::counterexample`]): PDR returns clauses over latches and confirms a depth by BMC;
///   IC3CFA returns `⋀ pc = l → Inv_l` and a plan from each step's nondet values.
///
/// **EUForia** (Bueno, Sakallah, "EUForia: Uninterpreted Functions Abstraction with
/// Incremental Induction") is PDR on an abstract system whose data operations are uninterpreted
/// functions, and fits the same hooks: `Lit` is an atom over the abstract state, [`Ic3::query`]
/// asks the abstract transition relation, [`Ic3::predecessor`] projects the model onto the
/// atoms (lifting only in a way that is sound for the abstraction), and
/// [`Ic3::counterexample`] checks an abstract counterexample on the precise system step by
/// step: a feasible one is the answer; a spurious one yields lemmas over the abstract literals
/// that the variant adds to its abstract transition relation, and either it answers `None`,
/// upon which [`run`] repeats the round at the same level with the frames kept, or the run
/// ends and the next one, on the refined system, starts from its frames at that level
/// ([`Ic3::first_round`]; bitmc's `euf` engine does this, since it blasts the refined system
/// anew). Refining only removes abstract transitions, so every lemma stays an
/// over-approximation of what is reachable within its level; what the variant remembers about
/// failed queries (propagation witnesses, cached answers) may not, and is cleared by the
/// refinement.
pub trait Ic3 {
    /// A literal of a cube.
    type Lit: Ord + Clone + std::hash::Hash;
    /// A proof obligation (its cube, and what else the variant tracks).
    type Ob;
    /// What a passing relative-induction query gives the generalisation.
    type Proof;
    /// What a failing one gives the predecessor extraction.
    type Model;
    /// A counterexample found by blocking.
    type Cex;
    /// The verdict of a run.
    type Answer;

    /// The lemmas.
    fn frames(&self) -> &Frames<Self::Lit>;
    /// How the queue orders obligations of one level.
    fn order(&self) -> Order;
    /// When obligations are tried again one level up within a round (by default after they
    /// were blocked, as in Eén, Mishchenko and Brayton's PDR).
    fn retry(&self) -> Retry {
        Retry {
            blocked: true,
            excluded: false,
        }
    }

    /// An answer before the first round (an initial goal state, no reachable goal).
    fn start(&mut self) -> Result<Option<Self::Answer>, Interrupted>;
    /// The level of the first round: 1, or the top level of frames kept from an earlier run
    /// on a system with more transitions (every lemma of those frames still holds).
    fn first_round(&self) -> usize {
        1
    }
    /// An answer before the round at `k` (a depth bound), after reporting progress.
    fn open_round(&mut self, _k: usize) -> Result<Option<Self::Answer>, Interrupted> {
        Ok(None)
    }
    /// The obligations a round at `k` starts with (goals, obligations kept from before).
    fn seed(&mut self, k: usize, queue: &mut Queue<Self::Ob>);
    /// A further goal at `k` that the frames do not exclude yet, blocked in a queue of its own.
    fn next_goal(&mut self, _k: usize) -> Result<Option<Self::Ob>, Interrupted> {
        Ok(None)
    }
    /// A queue of the round at `k` was drained in `took`.
    fn drained(&mut self, _k: usize, _queue: Queue<Self::Ob>, _took: Duration) {}
    /// An answer after blocking at `k` (a bound, the memory budget); else the frames are ready
    /// for propagation up to `k + 1`.
    fn extend(&mut self, _k: usize) -> Result<Option<Self::Answer>, Interrupted> {
        Ok(None)
    }
    /// An answer after the round at `k` found no fixpoint.
    fn close_round(&mut self, _k: usize) -> Option<Self::Answer> {
        None
    }
    /// The answer for a counterexample, or `None` after refining an abstraction that allowed a
    /// spurious one (the round is then repeated).
    fn counterexample(&mut self, cex: Self::Cex) -> Result<Option<Self::Answer>, Interrupted>;
    /// The answer for the inductive invariant of the lemmas above `level`.
    fn invariant(&mut self, level: usize) -> Self::Answer;

    /// An obligation was taken from the queue.
    fn popped(&mut self) -> Result<(), Interrupted>;
    /// The counterexample of an obligation `depth` steps from a goal when `level` is the
    /// initial one.
    fn initial(&self, _level: usize, _depth: usize) -> Option<Self::Cex> {
        None
    }
    /// Whether the frame at `level` already excludes the obligation.
    fn excluded(&self, ob: &Self::Ob, level: usize) -> bool;
    /// Blocks the obligation at `level` without a query where the variant knows it may
    /// (IC3CFA's skipping); whether it did.
    fn shortcut(&mut self, _ob: &mut Self::Ob, _level: usize) -> bool {
        false
    }
    /// The relative-induction query of an obligation at `level`: is its cube excluded from
    /// the successors of the frame below?
    fn query(
        &mut self,
        ob: &Self::Ob,
        level: usize,
    ) -> Result<Query<Self::Proof, Self::Model>, Interrupted>;
    /// The predecessor of obligation `id` at `level` in a failing query's model.
    fn predecessor(
        &mut self,
        queue: &Queue<Self::Ob>,
        id: ObId,
        level: usize,
        model: Self::Model,
    ) -> Result<Pred<Self::Ob, Self::Cex>, Interrupted>;
    /// The lemma's cube for the obligation blocked at `level` with `proof`.
    fn generalise(
        &mut self,
        ob: &Self::Ob,
        level: usize,
        proof: Self::Proof,
    ) -> Result<Vec<Self::Lit>, Interrupted>;
    /// Stores the lemma `¬cube` of the obligation, blocked at `level`; returns the level it
    /// was stored at (higher when the variant pushes it on at once).
    fn store(
        &mut self,
        ob: &mut Self::Ob,
        level: usize,
        cube: Vec<Self::Lit>,
    ) -> Result<usize, Interrupted>;
    /// The obligation, `depth` steps from a goal, was blocked at the top level: keep it for
    /// the next round if the variant does.
    fn keep(&mut self, _ob: &Self::Ob, _depth: usize) {}

    /// Whether lemmas are pushed at all.
    fn pushes(&self) -> bool {
        true
    }
    /// Tries to push lemma `¬cube` of `place` from `level` to `level + 1`.
    fn push(&mut self, place: usize, level: usize, cube: Vec<Self::Lit>)
        -> Result<(), Interrupted>;
    /// Whether an empty `level` ends the run (every place has its frames there).
    fn closes(&self, _level: usize) -> bool {
        true
    }
}

/// Runs IC3 with the hooks of `h` (see the module doc) until an answer.
pub fn run<H: Ic3>(h: &mut H) -> Result<H::Answer, Interrupted> {
    if let Some(a) = h.start()? {
        return Ok(a);
    }
    let mut k = h.first_round();
    loop {
        if let Some(a) = h.open_round(k)? {
            return Ok(a);
        }
        if let Some(cex) = round(h, k)? {
            match h.counterexample(cex)? {
                Some(a) => return Ok(a),
                None => continue,
            }
        }
        if let Some(a) = h.extend(k)? {
            return Ok(a);
        }
        if let Some(level) = super::propagate::propagate(h, k)? {
            return Ok(h.invariant(level));
        }
        if let Some(a) = h.close_round(k) {
            return Ok(a);
        }
        k += 1;
    }
}

/// Blocks every goal at `k`: the seeded queue, then each further goal in a queue of its own.
fn round<H: Ic3>(h: &mut H, k: usize) -> Result<Option<H::Cex>, Interrupted> {
    let mut queue = Queue::new(h.order());
    h.seed(k, &mut queue);
    loop {
        let started = Instant::now();
        if let Some(cex) = drain(h, &mut queue, k)? {
            return Ok(Some(cex));
        }
        h.drained(k, queue, started.elapsed());
        match h.next_goal(k)? {
            Some(goal) => {
                queue = Queue::new(h.order());
                queue.add(goal, k, 0);
            }
            None => return Ok(None),
        }
    }
}

/// Handles obligations until the queue is empty or one is a counterexample.
fn drain<H: Ic3>(
    h: &mut H,
    queue: &mut Queue<H::Ob>,
    k: usize,
) -> Result<Option<H::Cex>, Interrupted> {
    let retry = h.retry();
    while let Some((id, level)) = queue.pop() {
        h.popped()?;
        if let Some(cex) = h.initial(level, queue.depth(id)) {
            return Ok(Some(cex));
        }
        if h.excluded(queue.get(id), level) {
            if retry.excluded && level < k {
                queue.schedule(id, level + 1);
            }
            continue;
        }
        if h.shortcut(queue.get_mut(id), level) {
            continue;
        }
        match h.query(queue.get(id), level)? {
            Query::Holds(proof) => {
                let cube = h.generalise(queue.get(id), level, proof)?;
                let stored = h.store(queue.get_mut(id), level, cube)?;
                if stored < k {
                    if retry.blocked {
                        queue.schedule(id, stored + 1);
                    }
                } else {
                    h.keep(queue.get(id), queue.depth(id));
                }
            }
            Query::Fails(model) => match h.predecessor(queue, id, level, model)? {
                Pred::Initial(cex) => return Ok(Some(cex)),
                Pred::Obligation(ob) => {
                    let depth = queue.depth(id) + 1;
                    queue.add(ob, level - 1, depth);
                    queue.schedule(id, level);
                }
            },
        }
    }
    Ok(None)
}
