//! Generalisation contexts (the IC3CFA thesis; the RWTH paper's upper and
//! lower bounds): earlier per-edge generalisations, kept so that later ones can reuse them.
//!
//! A context `(e, j, c, g)` says that `g ⊆ c` was found relatively inductive along edge
//! `e = (l, …)` against `F(j−1, l)`, by `genMic`/`genBinary` (nothing else is recorded: an
//! interpolant or a cube read off a lemma is not a minimal sub-cube).
//!
//! - **Upper bound.** Frames only lose states over time, and `F(i−1, l) ⊆ F(j−1, l)` for
//!   `i ≤ j`. So for `i ≤ j`, at any later time, `g` is still relatively inductive along `e`
//!   at level `i`, and a cube `ĉ ⊇ g` can take `g` as its generalisation without a query.
//! - **Lower bound.** If `l` gained no lemma since (its stamp is the same) and `i ≥ j`, then
//!   `F(i−1, l)` has no more clauses than `F(j−1, l)` had, so no proper subset of a minimal `g`
//!   can be inductive now: `g ⊆ gen(c)`, and only the literals of `c ∖ g` need a dropping
//!   attempt. Only quality depends on this bound, never soundness (a literal kept in vain).
//!
//! The cache holds at most a given number of contexts; the least recently used goes first.

use crate::engine::ic3::cube::is_subset;
use std::collections::HashMap;

struct Context<L> {
    level: usize,
    cube: Vec<L>,
    gen: Vec<L>,
    /// Whether `gen` is minimal (no literal of it could be dropped); only then a lower bound.
    minimal: bool,
    /// The source location's stamp when it was recorded.
    stamp: u64,
    used: u64,
}

/// The contexts of every edge, over cubes of `L` (see the module doc).
pub(super) struct Contexts<L> {
    capacity: usize,
    by_edge: HashMap<usize, Vec<Context<L>>>,
    len: usize,
    clock: u64,
}

impl<L: Ord + Clone> Contexts<L> {
    pub fn new(capacity: usize) -> Self {
        Contexts {
            capacity,
            by_edge: HashMap::new(),
            len: 0,
            clock: 0,
        }
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// An upper bound for `cube` along `edge` at `level`: an earlier generalisation at `level`
    /// or above that is a subset of `cube`.
    pub fn upper(&mut self, edge: usize, level: usize, cube: &[L]) -> Option<Vec<L>> {
        let now = self.tick();
        let list = self.by_edge.get_mut(&edge)?;
        let c = list
            .iter_mut()
            .filter(|c| c.level >= level && is_subset(&c.gen, cube))
            .min_by_key(|c| c.gen.len())?;
        c.used = now;
        Some(c.gen.clone())
    }

    /// A lower bound for `cube` along `edge` at `level`, when the source location's stamp is
    /// still `stamp`: literals every generalisation of `cube` keeps.
    pub fn lower(&mut self, edge: usize, level: usize, cube: &[L], stamp: u64) -> Option<Vec<L>> {
        let now = self.tick();
        let list = self.by_edge.get_mut(&edge)?;
        let c = list.iter_mut().find(|c| {
            c.minimal && c.stamp == stamp && c.level <= level && c.cube.as_slice() == cube
        })?;
        c.used = now;
        Some(c.gen.clone())
    }

    /// Records that `gen ⊆ cube` is relatively inductive along `edge` at `level`.
    pub fn record(
        &mut self,
        edge: usize,
        level: usize,
        cube: Vec<L>,
        gen: Vec<L>,
        minimal: bool,
        stamp: u64,
    ) {
        if self.capacity == 0 {
            return;
        }
        let used = self.tick();
        let list = self.by_edge.entry(edge).or_default();
        if let Some(c) = list.iter_mut().find(|c| c.cube == cube && c.gen == gen) {
            c.level = c.level.max(level);
            c.stamp = stamp;
            c.minimal |= minimal;
            c.used = used;
            return;
        }
        list.push(Context {
            level,
            cube,
            gen,
            minimal,
            stamp,
            used,
        });
        self.len += 1;
        if self.len > self.capacity {
            self.evict();
        }
    }

    /// Drops the least recently used context.
    fn evict(&mut self) {
        let oldest = self
            .by_edge
            .iter()
            .flat_map(|(&e, list)| list.iter().enumerate().map(move |(i, c)| (c.used, e, i)))
            .min();
        if let Some((_, e, i)) = oldest {
            let list = self.by_edge.get_mut(&e).expect("found above");
            list.swap_remove(i);
            if list.is_empty() {
                self.by_edge.remove(&e);
            }
            self.len -= 1;
        }
    }

    /// How many contexts are kept.
    pub fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(ids: &[u32]) -> Vec<u32> {
        ids.to_vec()
    }

    #[test]
    fn bounds_follow_the_validity_rules() {
        let mut cx = Contexts::new(8);
        cx.record(0, 3, cube(&[1, 2, 3]), cube(&[2]), true, 7);
        // Upper bounds: at the recorded level or below, for supersets of the result only.
        assert_eq!(cx.upper(0, 3, &cube(&[2, 5])), Some(cube(&[2])));
        assert_eq!(cx.upper(0, 1, &cube(&[2])), Some(cube(&[2])));
        assert_eq!(cx.upper(0, 4, &cube(&[2, 5])), None);
        assert_eq!(cx.upper(0, 3, &cube(&[1, 3])), None);
        assert_eq!(cx.upper(1, 3, &cube(&[2])), None);
        // Lower bounds: the same cube, at the recorded level or above, with the stamp unchanged.
        assert_eq!(cx.lower(0, 3, &cube(&[1, 2, 3]), 7), Some(cube(&[2])));
        assert_eq!(cx.lower(0, 5, &cube(&[1, 2, 3]), 7), Some(cube(&[2])));
        assert_eq!(cx.lower(0, 2, &cube(&[1, 2, 3]), 7), None);
        assert_eq!(cx.lower(0, 3, &cube(&[1, 2, 3]), 8), None);
        assert_eq!(cx.lower(0, 3, &cube(&[1, 2]), 7), None);
        // Not minimal: no lower bound.
        cx.record(1, 3, cube(&[1, 2]), cube(&[1, 2]), false, 0);
        assert_eq!(cx.lower(1, 3, &cube(&[1, 2]), 0), None);
    }

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut cx = Contexts::new(2);
        cx.record(0, 1, cube(&[1]), cube(&[1]), true, 0);
        cx.record(1, 1, cube(&[2]), cube(&[2]), true, 0);
        assert!(cx.upper(0, 1, &cube(&[1])).is_some());
        cx.record(2, 1, cube(&[3]), cube(&[3]), true, 0);
        assert_eq!(cx.len(), 2);
        assert!(cx.upper(1, 1, &cube(&[2])).is_none());
        assert!(cx.upper(0, 1, &cube(&[1])).is_some());
        assert!(cx.upper(2, 1, &cube(&[3])).is_some());
    }
}
