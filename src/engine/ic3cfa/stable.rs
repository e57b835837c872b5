//! Termination by stable iterations (Mertens' thesis on reuse in IC3CFA, T001-2): an
//! experiment behind [`Ic3cfaOptions::stable`], off by default.
//!
//! The thesis calls rounds `k` and `k + 1` stable when lifting every obligation of round `k`
//! by one level gives exactly the obligations of round `k + 1`, and lets IC3CFA stop with SAFE
//! once the number of stable rounds exceeds the sum of the lengths of the CFA's elementary
//! cycles. Its slides give no proof, and say neither what the "lifted queue" condition adds nor
//! what a stable run proves (the digest's §6(c)-7: an experimental flag, the answer validated).
//! Here a round's obligations are those it handled (checked, not found excluded already) as
//! `(location, cube, level)`; the bound is a number `N` of consecutive stable rounds, given by
//! the user. After `N` of them, at a level `k` at or beyond every location's distance (so that
//! no frame is empty by distance alone), the run stops with SAFE and the invariant `F(k)`: the
//! frame that the last round showed to exclude every target, as a `Certificate::Circuit` like
//! the fixpoint's ([`Ic3cfa::safe`]).
//!
//! Nothing here shows that `F(k)` is inductive. The caller re-checks every certificate on the
//! bit-level system with another backend and answers UNKNOWN (internal error) when it does not
//! hold, so a wrong stop costs the answer, never the verdict. With pushing on, a stop is never
//! accepted: pushing has just tried every lemma stored at level `k`, and if `F(k)` were
//! inductive every one of them would have moved up and the fixpoint check would have ended the
//! run first. The criterion is meant for IC3CFA without pushing, as the thesis measured it
//! (reuse and skipping, no pushing).
//!
//! [`Ic3cfaOptions::stable`]: super::Ic3cfaOptions::stable

use super::{Cube, Ic3cfa, Obligation};
use crate::cfa::Loc;
use crate::engine::ic3::Queue;

/// The obligations a round handled, as `(location, cube, level)`, sorted.
type Round = Vec<(Loc, Cube, usize)>;

/// The stability of the rounds so far (see the module doc).
#[derive(Default)]
pub(super) struct Stability {
    /// The obligations the last round handled.
    last: Option<Round>,
    /// How many consecutive rounds up to the last one were stable.
    run: usize,
}

impl Ic3cfa<'_> {
    /// Notes the obligations that the round whose queue is `queue` handled.
    pub(super) fn record_round(&mut self, queue: &Queue<Obligation>) {
        if self.io.stable == 0 {
            return;
        }
        let mut round: Round = queue
            .iter()
            .filter(|(_, o, _)| o.handled)
            .map(|(_, o, level)| (o.loc, o.cube.clone(), level))
            .collect();
        round.sort();
        round.dedup();
        let s = &mut self.stability;
        let stable = s.last.as_ref().is_some_and(|last| lifted(last, &round));
        if stable {
            s.run += 1;
            self.n.stable_rounds += 1;
        } else {
            s.run = 0;
        }
        s.last = Some(round);
    }

    /// The level `j` of the frame `F(j)` to stop with after round `k`, if the run stops by
    /// [`Ic3cfaOptions::stable`](super::Ic3cfaOptions::stable): with pushing, `F(k + 1)`, the
    /// lemmas pushing just moved up (every lower frame has a lemma that pushing showed is not
    /// inductive); without, the frame of the lowest level the last round handled an obligation
    /// at (or of every location's distance, if that is higher), which holds every lemma of
    /// the round.
    pub(super) fn stable_stop(&self, k: usize) -> Option<usize> {
        let reach = self.reach();
        if self.io.stable == 0 || self.stability.run < self.io.stable || k < reach {
            return None;
        }
        Some(if self.io.push {
            k + 1
        } else {
            let low = self
                .stability
                .last
                .iter()
                .flatten()
                .map(|(_, _, i)| *i)
                .min();
            low.unwrap_or(k).max(reach)
        })
    }
}

/// Whether `next` is `last` with every level one higher.
fn lifted<C: PartialEq>(last: &[(Loc, C, usize)], next: &[(Loc, C, usize)]) -> bool {
    last.len() == next.len()
        && last
            .iter()
            .zip(next)
            .all(|((l, c, i), (m, d, j))| l == m && c == d && i + 1 == *j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_stable_when_it_is_the_last_one_lifted() {
        let last = vec![(Loc(1), vec![3], 2), (Loc(2), vec![], 4)];
        let next = vec![(Loc(1), vec![3], 3), (Loc(2), vec![], 5)];
        assert!(lifted(&last, &next));
        assert!(!lifted(&last, &last));
        let mut more = next.clone();
        more.push((Loc(3), vec![5], 1));
        assert!(!lifted(&last, &more));
        let other = vec![(Loc(1), vec![4], 3), (Loc(2), vec![], 5)];
        assert!(!lifted(&last, &other));
        let moved = vec![(Loc(1), vec![3], 3), (Loc(3), vec![], 5)];
        assert!(!lifted(&last, &moved));
    }
}
