//! PDR's hooks into the IC3 template ([`ic3::run`](crate::engine::ic3::run)): one place of
//! frames with a solver per level, latch cubes, relative induction against `F_{i-1}` with
//! lifted predecessors, MIC with CTGs and `down` ([`super::mic`]) followed by pushing the new
//! lemma as high as it holds, obligations blocked at the top kept for the next frame, and
//! propagation that skips a lemma whose failure witness still stands.

use super::query::{Interrupted, RelInd};
use super::{Cube, Obligation, Pdr, PushWitness};
use crate::engine::ic3::{Frames, Ic3, ObId, Order, Pred, Query, Queue};
use crate::engine::unroll::too_large;
use crate::engine::{Certificate, ProgressFn, Reporter, Unknown, Verdict};
use crate::sat::Lit;
use std::time::{Duration, Instant};

/// A PDR run: the engine, where progress goes, and when it started.
pub(super) struct Run<'x, 's, 'p> {
    pdr: &'x mut Pdr<'s>,
    progress: ProgressFn<'p>,
    reporter: Reporter,
    /// When the current propagation started.
    propagating: Instant,
}

impl<'x, 's, 'p> Run<'x, 's, 'p> {
    pub(super) fn new(pdr: &'x mut Pdr<'s>, progress: ProgressFn<'p>, start: Instant) -> Self {
        Run {
            pdr,
            progress,
            reporter: Reporter::new("pdr", start),
            propagating: start,
        }
    }
}

impl Ic3 for Run<'_, '_, '_> {
    type Lit = Lit;
    type Ob = Obligation;
    type Proof = Cube;
    type Model = Vec<bool>;
    type Cex = usize;
    type Answer = Verdict;

    fn frames(&self) -> &Frames<Lit> {
        &self.pdr.frames
    }

    fn order(&self) -> Order {
        Order::Shallowest
    }

    fn first_round(&self) -> usize {
        self.pdr.k()
    }

    fn start(&mut self) -> Result<Option<Verdict>, Interrupted> {
        let init_goal = self.pdr.init_goal()?;
        Ok(init_goal.then(|| self.pdr.counterexample(0)))
    }

    fn seed(&mut self, k: usize, queue: &mut Queue<Obligation>) {
        for (ob, depth) in std::mem::take(&mut self.pdr.carried) {
            queue.add(ob, k, depth);
        }
    }

    fn next_goal(&mut self, k: usize) -> Result<Option<Obligation>, Interrupted> {
        let p = &mut *self.pdr;
        let Some(vals) = p.solvers[k].bad_state(p.sys, &mut p.sat)? else {
            return Ok(None);
        };
        let cube = p.state_cube(&vals, None)?;
        Ok(Some(Obligation { cube, blocked: 0 }))
    }

    fn drained(&mut self, _: usize, _: Queue<Obligation>, took: Duration) {
        self.pdr.time_block += took;
    }

    fn extend(&mut self, k: usize) -> Result<Option<Verdict>, Interrupted> {
        let lemmas = format!("{} lemmas", self.pdr.frames.len());
        self.reporter.round(&mut *self.progress, k, lemmas);
        let p = &mut *self.pdr;
        if p.backend_opts.max_depth.is_some_and(|m| k >= m) {
            return Ok(Some(Verdict::Unknown(Unknown::bound(format!(
                "no invariant found within {k} frames"
            )))));
        }
        // Every frame's solver holds two states, as do the lifter's; the initial-state
        // solver one.
        let states = 2 * (p.solvers.len() + 2) + 1;
        if too_large(p.sys, states, 2) {
            return Ok(Some(Verdict::Unknown(Unknown::memory(format!(
                "the next frame's solver would exceed the memory budget (frame {k})"
            )))));
        }
        let s = p.frame_solver(false);
        p.solvers.push(s);
        p.strengthened.push(Vec::new());
        self.propagating = Instant::now();
        Ok(None)
    }

    fn close_round(&mut self, _: usize) -> Option<Verdict> {
        self.pdr.time_propagate += self.propagating.elapsed();
        None
    }

    fn counterexample(&mut self, depth: usize) -> Result<Option<Verdict>, Interrupted> {
        Ok(Some(self.pdr.counterexample(depth)))
    }

    fn invariant(&mut self, level: usize) -> Verdict {
        self.pdr.time_propagate += self.propagating.elapsed();
        Verdict::Safe(Certificate::Invariant(self.pdr.invariant(level + 1)))
    }

    fn popped(&mut self) -> Result<(), Interrupted> {
        self.pdr.obligations += 1;
        let frames = &self.pdr.frames;
        self.reporter
            .tick(&mut *self.progress, || format!("{} lemmas", frames.len()));
        Ok(())
    }

    fn initial(&self, level: usize, depth: usize) -> Option<usize> {
        (level == 0).then_some(depth)
    }

    fn excluded(&self, ob: &Obligation, level: usize) -> bool {
        self.pdr.is_blocked(&ob.cube, level)
    }

    fn query(
        &mut self,
        ob: &Obligation,
        level: usize,
    ) -> Result<Query<Cube, Vec<bool>>, Interrupted> {
        Ok(match self.pdr.relind(&ob.cube, level - 1)? {
            RelInd::Holds(core) => Query::Holds(core),
            RelInd::Pred(_, vals) => Query::Fails(vals),
        })
    }

    fn predecessor(
        &mut self,
        queue: &Queue<Obligation>,
        id: ObId,
        _: usize,
        vals: Vec<bool>,
    ) -> Result<Pred<Obligation, usize>, Interrupted> {
        let p = self.pdr.state_cube(&vals, Some(&queue.get(id).cube))?;
        if self.pdr.intersects_init(&p)? {
            // Every state of a lifted cube reaches the obligation, so an initial one is the
            // start of a counterexample.
            return Ok(Pred::Initial(queue.depth(id) + 1));
        }
        Ok(Pred::Obligation(Obligation {
            cube: p,
            blocked: 0,
        }))
    }

    fn generalise(
        &mut self,
        ob: &Obligation,
        level: usize,
        core: Cube,
    ) -> Result<Cube, Interrupted> {
        let p = &mut *self.pdr;
        let core = p.core_or(core, &ob.cube)?;
        let started = Instant::now();
        p.may_go_down = p.opts.dynamic == 0 || ob.blocked >= p.opts.dynamic;
        p.down_generalisations += u64::from(p.may_go_down);
        let g = p.mic(core, level, p.opts.ctg_depth)?;
        p.time_generalize += started.elapsed();
        p.generalisations += 1;
        Ok(g)
    }

    fn store(
        &mut self,
        ob: &mut Obligation,
        level: usize,
        cube: Cube,
    ) -> Result<usize, Interrupted> {
        let stored = self.pdr.push_and_add(cube, level)?;
        ob.blocked += 1;
        Ok(stored)
    }

    fn keep(&mut self, ob: &Obligation, depth: usize) {
        if self.pdr.opts.carry {
            // Blocked at the top: the state may still reach a goal in more steps, so it is
            // tried again at the next frame.
            self.pdr.carried.push((ob.clone(), depth));
        }
    }

    fn push(&mut self, _: usize, i: usize, c: Cube) -> Result<(), Interrupted> {
        let p = &mut *self.pdr;
        if !p.frames.contains(0, i, &c) {
            return Ok(());
        }
        if let Some(w) = p.push_witness.get(&c) {
            if w.level == i && p.witness_stands(w, i) {
                // It stands against every lemma of `F_i` so far: the next look starts after them.
                let since = p.strengthened[i].len();
                if let Some(w) = p.push_witness.get_mut(&c) {
                    w.since = since;
                }
                p.pushes_skipped += 1;
                return Ok(());
            }
        }
        let mut ctps = 0;
        loop {
            match p.relind(&c, i)? {
                RelInd::Holds(core) => {
                    p.push_witness.remove(&c);
                    // `g ⊆ c`: adding it at `i + 1` removes `c` from level `i`.
                    let g = p.core_or(core, &c)?;
                    let from = if g == c { i + 1 } else { 1 };
                    p.add_lemma(g, i + 1, from);
                    return Ok(());
                }
                RelInd::Pred(state, vals) => {
                    if ctps < p.opts.ctp && p.block_ctp(&c, &state, &vals, i)? {
                        ctps += 1;
                        continue;
                    }
                    let since = p.strengthened[i].len();
                    let w = PushWitness {
                        state,
                        level: i,
                        since,
                    };
                    p.push_witness.insert(c, w);
                    return Ok(());
                }
            }
        }
    }
}
