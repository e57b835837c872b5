//! What a round of IC3CFA starts with and may skip: the targets at the top level and the
//! obligations of the previous round, reused and skipped where the options say so (the round
//! itself is the IC3 template's, [`super::hooks`]; pushing follows, in [`super::push`]).
//!
//! **Reuse** (Mertens' thesis talk): the obligations handled in round `k−1` start round
//! `k` one level higher, with the targets. Each is a set of states with an exact path to a target
//! (its chain of obligations and nondet values), so it stays sound to block it or to report a
//! counterexample from it; the most a stale one costs is work. Its chain is kept with it.
//!
//! **Skipping** (Mertens' thesis talk): a reused obligation at `(i, l)` that was blocked at `(i−1, l)` with
//! `g` in the previous round is blocked with `g` again, without a query, when no source location
//! `l_p` of `l` has a lemma stored at exactly level `i−2` (and `F(i−2, l_p)` is not empty by
//! distance alone): then `F(i−1, l_p) = F(i−2, l_p)` now, and both are contained in the
//! `F(i−2, l_p)` that `g` was checked against.

use super::MEMORY_MARGIN;
use super::{Cube, Ic3cfa, Obligation};
use crate::cfa::Loc;
use crate::engine::ic3::{ObId, Queue};
use std::collections::HashMap;

impl Ic3cfa<'_> {
    /// The obligations a round at level `k` starts with: those of the last round one level
    /// higher (with reuse), then each target not excluded at `k` that is not among them.
    pub(super) fn seed(&mut self, k: usize, queue: &mut Queue<Obligation>) {
        if let Some(last) = self.last_round.take() {
            self.lift(&last, queue);
        }
        for g in self.targets.clone() {
            let lifted = queue
                .iter()
                .any(|(_, o, _)| o.loc == g && o.cube.is_empty());
            if !lifted && !self.excluded(g, k, &[]) {
                queue.add(Obligation::new(g, Vec::new(), None), k, 0);
            }
        }
    }

    /// Whether memory has room for the margin and for the terms and the circuit to grow once
    /// more (a table that grows allocates twice its size while the old one is still held; an
    /// allocation that fails ends the whole process, every portfolio member with it).
    pub(super) fn room_to_grow(&self) -> bool {
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
    pub(super) fn skippable(&self, ob: &Obligation, level: usize) -> Option<Cube> {
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
    pub(super) fn new(loc: Loc, cube: Cube, next: Option<(ObId, Vec<u128>)>) -> Obligation {
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
pub(super) fn chain_of(
    queue: &Queue<Obligation>,
    first: Vec<u128>,
    mut id: ObId,
) -> Vec<Vec<u128>> {
    let mut steps = vec![first];
    while let Some((next, slots)) = &queue.get(id).next {
        steps.push(slots.clone());
        id = *next;
    }
    steps
}
