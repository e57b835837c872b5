//! Propagation and termination: after the round at `k`, every lemma stored at a level
//! `i ≤ k` is offered to the variant's push (to `i + 1` where it is inductive relative to the
//! frame at `i`); once a level that [`Ic3::closes`] has no lemma stored at exactly it, the
//! frames there and one above are equal, and the lemmas above it are an inductive invariant.

use super::template::Ic3;
use crate::engine::Interrupted;

/// Pushes the lemmas of levels `1..=k` (in level order, then by place, each level's lemmas in
/// the order they were stored); returns the first level left empty that closes the run.
pub fn propagate<H: Ic3>(h: &mut H, k: usize) -> Result<Option<usize>, Interrupted> {
    for level in 1..=k {
        if h.pushes() {
            for place in 0..h.frames().places() {
                for cube in h.frames().at(place, level).to_vec() {
                    h.push(place, level, cube)?;
                }
            }
        }
        if h.closes(level) && h.frames().delta_empty(level) {
            return Ok(Some(level));
        }
    }
    Ok(None)
}
