//! Pushing lemmas one level up along the CFA's edges (Mertens' thesis) and the push filter;
//! the template's propagation ([`crate::engine::ic3`]) offers each lemma and checks for the
//! fixpoint at the levels [`Ic3cfa::reach`] allows.
//!
//! **Pushing.** After a round at level `k`, each lemma `¬c` of a location `l` stored at a level
//! `i ≤ k` moves to `i + 1` when every edge `e = (l_p, cmd, l)` into `l` refutes `c` against
//! `F(i, l_p)`: `F(i, l_p) ∧ T_e ∧ c′` is unsatisfiable (the push is relative induction at
//! `i + 1`). With predecessor cubes on, a hit answers an edge without SAT: that is the thesis'
//! SAT-free push, taken only after a hit (its own side condition, an edge that assigns none of
//! `c`'s variables, is not proved on its slides). When a level at or beyond every location's
//! distance has no lemma stored at exactly it, `F(i) = F(i + 1)`: the fixpoint.
//!
//! **Push filter** ([`Ic3cfaOptions::push_filter`]). The thesis limits push requests with
//! filters it names but does not define (NONE, ASSIGN, PREDECESSOR, RESTRICTIVE); this one
//! looks at the predecessor's frame and drops only requests that are sure to fail, as PDR's
//! propagation does. A push of `c` at `l` that failed along `e = (l_p, cmd, l)` had a model: a
//! state `s` of `F(i, l_p)` and nondet values that take `s` along `e` into `c`. The edge and `c`
//! do not change, so while `s` is still in the frame `F(i′, l_p)` that a later push of `c` from
//! level `i′` asks about (no lemma of `l_p` at `i′` or above excludes it, which is evaluated on
//! `s` without a solver), that push fails along `e` again and is not made. The filter changes
//! no push's outcome, only how many queries find it.
//!
//! [`Ic3cfaOptions::push_filter`]: super::Ic3cfaOptions::push_filter

use super::{Cube, Ic3cfa, Kind, Rel};
use crate::bv::TermId;
use crate::bv::Valuation;
use crate::cfa::Loc;
use crate::engine::Interrupted;
use std::collections::HashMap;

/// A push that failed: the edge that refuted it, and the state at the edge's source in the
/// query's model.
pub(super) struct Failure {
    edge: usize,
    state: Vec<(TermId, u128)>,
}

/// The failed pushes of the lemmas stored at the last push, by location and cube (see the
/// module doc).
pub(super) type PushFilter = HashMap<(usize, Cube), Failure>;

impl Ic3cfa<'_> {
    /// The largest distance of a location from the initial one (at least 1).
    pub(super) fn reach(&self) -> usize {
        self.dist
            .iter()
            .copied()
            .filter(|&d| d != usize::MAX)
            .max()
            .unwrap_or(0)
            .max(1)
    }

    /// Offers lemma `¬cube` of location `l` at `level` a push one level up (the template's
    /// propagation asks for every lemma of levels `1..=k` after a round at `k`): left out
    /// while the failure recorded at the last propagation still holds, else tried along every
    /// incoming edge, its failure recorded for the next propagation.
    pub(super) fn push(&mut self, l: usize, level: usize, cube: Cube) -> Result<(), Interrupted> {
        let key = (l, cube);
        if let Some(f) = self.filter_before.remove(&key) {
            if self.io.push_filter && self.fails_again(&f, level) {
                self.n.push_filtered += 1;
                #[cfg(test)]
                self.audit(&f, l, level, &key.1)?;
                self.filter.insert(key, f);
                return Ok(());
            }
        }
        if let Some(failure) = self.push_lemma(l, level, &key.1)? {
            if self.io.push_filter {
                self.filter.insert(key, failure);
            }
        }
        Ok(())
    }

    /// Tries to push lemma `¬cube` of location `l` from `level` to `level + 1`; the failure
    /// when an edge refutes it.
    fn push_lemma(
        &mut self,
        l: usize,
        level: usize,
        cube: &Cube,
    ) -> Result<Option<Failure>, Interrupted> {
        self.n.push_tried += 1;
        for e in self.incoming[l].clone() {
            if let Rel::Fails = self.relind(e, level + 1, cube, Kind::Push)? {
                let state = if self.io.push_filter {
                    self.model_state(e)
                } else {
                    Vec::new()
                };
                return Ok(Some(Failure { edge: e, state }));
            }
        }
        self.n.pushed += 1;
        self.add_lemma(Loc(l as u32), level + 1, cube.clone());
        Ok(None)
    }

    /// Tests only: the push of `cube` at `l` from `level` that the filter left out fails along
    /// the edge of `failure` indeed.
    #[cfg(test)]
    fn audit(
        &mut self,
        failure: &Failure,
        l: usize,
        level: usize,
        cube: &Cube,
    ) -> Result<(), Interrupted> {
        if self.audit_filter {
            let held = matches!(
                self.relind(failure.edge, level + 1, cube, Kind::Push)?,
                Rel::Holds(..)
            );
            assert!(
                !held,
                "a filtered push of a lemma of location {l} from level {level} holds"
            );
        }
        Ok(())
    }

    /// Whether a push from `level` that failed with `failure` is sure to fail again: the failed
    /// query's state is still in `F(level, l_p)` for the edge's source `l_p`.
    fn fails_again(&self, failure: &Failure, level: usize) -> bool {
        let from = self.cfa.edges[failure.edge].from;
        if from != self.cfa.init && level < self.dist[from.index()] {
            // `F(level, from)` is empty: the push holds along this edge.
            return false;
        }
        let mut values = Valuation::of_terms(&self.tm, failure.state.iter().copied());
        !self
            .lemmas
            .from(from.index(), level)
            .any(|(_, cube)| cube.iter().all(|&t| values.holds(&self.tm, t)))
    }
}
