//! IC3CFA's hooks into the IC3 template ([`ic3::run`](crate::engine::ic3::run)): a place of
//! frames per location, word-level cubes, relative induction along every incoming edge, exact
//! predecessors along the failing edge ([`super::wp`]), the per-edge generalisation united
//! over the edges with the bit-level fallback ([`super::gen`]), obligations reused and
//! skipped across rounds ([`super::block`]), pushing with its filter ([`super::push`]), and
//! the stop after stable rounds ([`super::stable`]).

use super::MEMORY_CHECK_EVERY;
use super::{Cores, Cube, Ic3cfa, Kind, Obligation};
use crate::bv::TermId;
use crate::engine::ic3::{Frames, Ic3, ObId, Order, Pred, Query, Queue, Retry};
use crate::engine::Interrupted;
use crate::engine::{ProgressFn, Reporter, Unknown, Verdict};
use std::time::{Duration, Instant};

/// An IC3CFA run: the engine, where progress goes, and when it started.
pub(super) struct Run<'x, 'a, 'p> {
    ic3: &'x mut Ic3cfa<'a>,
    progress: ProgressFn<'p>,
    reporter: Reporter,
}

impl<'x, 'a, 'p> Run<'x, 'a, 'p> {
    pub(super) fn new(ic3: &'x mut Ic3cfa<'a>, progress: ProgressFn<'p>, start: Instant) -> Self {
        Run {
            ic3,
            progress,
            reporter: Reporter::new("ic3cfa", start),
        }
    }
}

impl Ic3 for Run<'_, '_, '_> {
    type Lit = TermId;
    type Ob = Obligation;
    type Proof = Cores;
    type Model = usize;
    type Cex = Vec<Vec<u128>>;
    type Answer = Verdict;

    fn frames(&self) -> &Frames<TermId> {
        &self.ic3.lemmas
    }

    fn order(&self) -> Order {
        Order::Newest
    }

    fn retry(&self) -> Retry {
        Retry {
            blocked: self.ic3.io.carry,
            excluded: self.ic3.io.carry,
        }
    }

    fn start(&mut self) -> Result<Option<Verdict>, Interrupted> {
        Ok(self.ic3.targets.is_empty().then(|| self.ic3.safe(0)))
    }

    fn open_round(&mut self, k: usize) -> Result<Option<Verdict>, Interrupted> {
        if let Some(max) = self.ic3.opts.max_depth {
            if k > max {
                return Ok(Some(Verdict::Unknown(Unknown::bound(format!(
                    "no target excluded up to level {max} without a fixpoint"
                )))));
            }
        }
        let lemmas = format!("{} lemmas", self.ic3.lemmas.len());
        self.reporter.round(&mut *self.progress, k, lemmas);
        Ok(None)
    }

    fn seed(&mut self, k: usize, queue: &mut Queue<Obligation>) {
        self.ic3.seed(k, queue);
    }

    fn drained(&mut self, _: usize, queue: Queue<Obligation>, _: Duration) {
        self.ic3.record_round(&queue);
        if self.ic3.io.reuse {
            self.ic3.last_round = Some(queue);
        }
    }

    fn extend(&mut self, _: usize) -> Result<Option<Verdict>, Interrupted> {
        self.ic3.filter_before = std::mem::take(&mut self.ic3.filter);
        Ok(None)
    }

    fn close_round(&mut self, k: usize) -> Option<Verdict> {
        self.ic3.filter_before.clear();
        let j = self.ic3.stable_stop(k)?;
        // Experimental: `F(j)` is handed over unproved, for the caller to check.
        self.ic3.n.stable_stops += 1;
        self.ic3.stable_stop = Some(j);
        Some(self.ic3.safe(j - 1))
    }

    fn counterexample(&mut self, steps: Self::Cex) -> Result<Option<Verdict>, Interrupted> {
        Ok(Some(match self.ic3.plan(&steps) {
            Ok(plan) => Verdict::Unsafe(plan),
            Err(e) => Verdict::Unknown(Unknown::internal(e)),
        }))
    }

    fn invariant(&mut self, level: usize) -> Verdict {
        self.ic3.fixpoint = Some(level);
        self.ic3.safe(level)
    }

    fn popped(&mut self) -> Result<(), Interrupted> {
        let lemmas = &self.ic3.lemmas;
        self.reporter
            .tick(&mut *self.progress, || format!("{} lemmas", lemmas.len()));
        let n = &mut self.ic3.n;
        n.obligations += 1;
        if n.obligations.is_multiple_of(MEMORY_CHECK_EVERY) && !self.ic3.room_to_grow() {
            self.ic3.short_of_memory = true;
            return Err(Interrupted);
        }
        Ok(())
    }

    fn excluded(&self, ob: &Obligation, level: usize) -> bool {
        self.ic3.excluded(ob.loc, level, &ob.cube)
    }

    fn shortcut(&mut self, ob: &mut Obligation, level: usize) -> bool {
        ob.handled = true;
        let Some(g) = self.ic3.skippable(ob, level) else {
            return false;
        };
        self.ic3.n.skipped += 1;
        self.ic3.add_lemma(ob.loc, level, g.clone());
        ob.blocked = Some((level, g));
        true
    }

    fn query(&mut self, ob: &Obligation, level: usize) -> Result<Query<Cores, usize>, Interrupted> {
        Ok(
            match self.ic3.edge_cores(ob.loc, level, &ob.cube, Kind::RelInd)? {
                Ok(cores) => Query::Holds(cores),
                Err(e) => Query::Fails(e),
            },
        )
    }

    fn predecessor(
        &mut self,
        queue: &Queue<Obligation>,
        id: ObId,
        _: usize,
        e: usize,
    ) -> Result<Pred<Obligation, Self::Cex>, Interrupted> {
        let (pred, slots) = self.ic3.predecessor(e, &queue.get(id).cube);
        let from = self.ic3.cfa.edges[e].from;
        if from == self.ic3.cfa.init {
            return Ok(Pred::Initial(super::block::chain_of(queue, slots, id)));
        }
        Ok(Pred::Obligation(Obligation::new(
            from,
            pred,
            Some((id, slots)),
        )))
    }

    fn generalise(
        &mut self,
        ob: &Obligation,
        level: usize,
        cores: Cores,
    ) -> Result<Cube, Interrupted> {
        self.ic3.n.literals_before += ob.cube.len();
        let started = Instant::now();
        let mut g = self.ic3.generalise(level, &ob.cube, cores)?;
        if let Some(finer) = self.ic3.bit_fallback(ob.loc, level, &g)? {
            self.ic3.n.bit_splits += 1;
            g = finer;
        }
        self.ic3.n.literals_after += g.len();
        self.ic3.n.generalisations += 1;
        self.ic3.n.gen_time += started.elapsed();
        Ok(g)
    }

    fn store(&mut self, ob: &mut Obligation, level: usize, g: Cube) -> Result<usize, Interrupted> {
        self.ic3.add_lemma(ob.loc, level, g.clone());
        ob.blocked = Some((level, g));
        Ok(level)
    }

    fn pushes(&self) -> bool {
        self.ic3.io.push
    }

    fn push(&mut self, place: usize, level: usize, cube: Cube) -> Result<(), Interrupted> {
        self.ic3.push(place, level, cube)
    }

    fn closes(&self, level: usize) -> bool {
        level >= self.ic3.reach()
    }
}
