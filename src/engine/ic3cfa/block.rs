//! One round of IC3CFA: blocking the targets at the top level through the obligation queue,
//! with the obligations of the previous round reused and skipped where the options say so
//! (pushing lemmas to the next level follows, in [`super::push`]).
//!
//! **Reuse** (Mertens' thesis talk, T001-1): the obligations handled in round `k−1` start round
//! `k` one level higher, with the targets. Each is a set of states with an exact path to a target
//! (its chain of obligations and nondet values), so it stays sound to block it or to report a
//! counterexample from it; the most a stale one costs is work. Its chain is kept with it.
//!
//! **Skipping** (T001-3): a reused obligation at `(i, l)` that was blocked at `(i−1, l)` with
//! `g` in the previous round is blocked with `g` again, without a query, when no source location
//! `l_p` of `l` has a lemma stored at exactly level `i−2` (and `F(i−2, l_p)` is not empty by
//! distance alone): then `F(i−1, l_p) = F(i−2, l_p)` now, and both are contained in the
//! `F(i−2, l_p)` that `g` was checked against.

use super::{Blocked, Cube, Ic3cfa, Kind, Obligation, Rel, Stopped};
use super::{MEMORY_CHECK_EVERY, MEMORY_MARGIN};
use crate::cfa::Loc;
use crate::engine::ic3::{ObId, Order, Queue};
use std::collections::HashMap;
use std::time::Instant;

impl Ic3cfa<'_> {
    /// Blocks every target at level `k`.
    pub(super) fn block(&mut self, k: usize) -> Result<Blocked, Stopped> {
        let mut queue = Queue::new(Order::Newest);
        if let Some(last) = self.last_round.take() {
            self.lift(&last, &mut queue);
        }
        for g in self.targets.clone() {
            let lifted = queue
                .iter()
                .any(|(_, o, _)| o.loc == g && o.cube.is_empty());
            if !lifted && !self.excluded(g, k, &[]) {
                queue.add(Obligation::new(g, Vec::new(), None), k, 0);
            }
        }
        while let Some((id, level)) = queue.pop() {
            self.n.obligations += 1;
            if self.n.obligations.is_multiple_of(MEMORY_CHECK_EVERY) && !self.room_to_grow() {
                self.short_of_memory = true;
                return Err(Stopped);
            }
            let loc = queue.get(id).loc;
            let cube = queue.get(id).cube.clone();
            if self.excluded(loc, level, &cube) {
                if self.io.carry && level < k {
                    queue.schedule(id, level + 1);
                }
                continue;
            }
            queue.get_mut(id).handled = true;
            if let Some(g) = self.skippable(queue.get(id), level) {
                self.n.skipped += 1;
                self.add_lemma(loc, level, g.clone());
                queue.get_mut(id).blocked = Some((level, g));
                continue;
            }
            let mut cores = Vec::new();
            let mut refuted = false;
            for e in self.incoming[loc.index()].clone() {
                match self.relind(e, level, &cube, Kind::RelInd)? {
                    Rel::Holds(core, exact) => cores.push((e, core, exact)),
                    Rel::Fails => {
                        let (pred, slots) = self.predecessor(e, &cube);
                        let from = self.cfa.edges[e].from;
                        if from == self.cfa.init {
                            return Ok(Blocked::Counterexample(chain_of(&queue, slots, id)));
                        }
                        let ob = Obligation::new(from, pred, Some((id, slots)));
                        queue.add(ob, level - 1, queue.depth(id) + 1);
                        queue.schedule(id, level);
                        refuted = true;
                        break;
                    }
                }
            }
            if refuted {
                continue;
            }
            self.n.literals_before += cube.len();
            let started = Instant::now();
            let mut g = self.generalise(level, &cube, cores)?;
            if let Some(finer) = self.bit_fallback(loc, level, &g)? {
                self.n.bit_splits += 1;
                g = finer;
            }
            self.n.literals_after += g.len();
            self.n.generalisations += 1;
            self.n.gen_time += started.elapsed();
            self.add_lemma(loc, level, g.clone());
            queue.get_mut(id).blocked = Some((level, g));
            if self.io.carry && level < k {
                queue.schedule(id, level + 1);
            }
        }
        self.record_round(&queue);
        if self.io.reuse {
            self.last_round = Some(queue);
        }
        Ok(Blocked::Done)
    }

    /// Whether memory has room for the margin and for the terms and the circuit to grow once
    /// more (a table that grows allocates twice its size while the old one is still held; an
    /// allocation that fails ends the whole process, every portfolio member with it).
    fn room_to_grow(&self) -> bool {
        let growth = 2 * (self.tm.heap_bytes() + self.circuit.aig.heap_bytes());
        crate::sat::memory::room_for(MEMORY_MARGIN + growth)
    }

    /// Puts the obligations handled in the last round into `queue`, one level higher, with the
    /// obligations their chains go through.
    fn lift(&mut self, last: &Queue<Obligation>, queue: &mut Queue<Obligation>) {
        let n = last.len();
        let mut keep = vec![false; n];
        // Children come after their parents, so one pass from the end marks every chain.
        for (id, ob, _) in last.iter().collect::<Vec<_>>().into_iter().rev() {
            if ob.handled || keep[id.index()] {
                keep[id.index()] = true;
                if let Some((next, _)) = &ob.next {
                    keep[next.index()] = true;
                }
            }
        }
        let mut new_id: HashMap<ObId, ObId> = HashMap::new();
        for (id, ob, level) in last.iter() {
            if !keep[id.index()] {
                continue;
            }
            let mut copy = ob.clone();
            copy.handled = false;
            copy.next = ob
                .next
                .as_ref()
                .map(|(j, slots)| (new_id[j], slots.clone()));
            let depth = last.depth(id);
            new_id.insert(id, queue.add(copy, level + 1, depth));
            self.n.reused += 1;
        }
    }

    /// The lemma that blocks a reused obligation again without a query, if it may be skipped.
    fn skippable(&self, ob: &Obligation, level: usize) -> Option<Cube> {
        if !self.io.skip || level < 2 {
            return None;
        }
        let (at, g) = ob.blocked.as_ref()?;
        if *at != level - 1 {
            return None;
        }
        let stable = |lp: Loc| {
            let d = self.dist[lp.index()];
            lp == self.cfa.init
                || level - 1 < d
                || (level - 2 >= d && self.lemmas.at(lp.index(), level - 2).is_empty())
        };
        self.incoming[ob.loc.index()]
            .iter()
            .all(|&e| stable(self.cfa.edges[e].from))
            .then(|| g.clone())
    }
}

impl Obligation {
    fn new(loc: Loc, cube: Cube, next: Option<(ObId, Vec<u128>)>) -> Obligation {
        Obligation {
            loc,
            cube,
            next,
            handled: false,
            blocked: None,
        }
    }
}

/// The slots of every step of the counterexample that starts with `first` at the initial location
/// and goes on through obligation `id` and the obligations it leads to.
fn chain_of(queue: &Queue<Obligation>, first: Vec<u128>, mut id: ObId) -> Vec<Vec<u128>> {
    let mut steps = vec![first];
    while let Some((next, slots)) = &queue.get(id).next {
        steps.push(slots.clone());
        id = *next;
    }
    steps
}
