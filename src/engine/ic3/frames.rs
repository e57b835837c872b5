//! Delta-encoded frames with subsumption.
//!
//! A lemma `¬c` stored at level `j` holds in every frame `F_1 … F_j`, so the frame `F_i` of a
//! place is the set of its lemmas stored at levels `≥ i`, and "the delta of level `i`" is what
//! is stored at exactly `i`. Each lemma is stored once. Adding `¬c` at level `j` removes the
//! lemmas `¬d` of the same place at levels `≤ j` with `c ⊆ d`: they are implied by the new one in
//! every frame where they held. Lemmas of a level keep the order they were added in.
//!
//! Each stored cube has a signature, one bit per literal (by hash, of 64), so that most pairs
//! in the subset tests of subsumption and [`Frames::excludes`] are told apart by one word: `c`
//! is a subset of `d` only if every bit of `c`'s signature is in `d`'s.

use super::cube::is_subset;
use std::hash::{BuildHasher, Hash, Hasher};

/// The signature of a cube (see the module doc).
fn signature<L: Hash>(cube: &[L]) -> u64 {
    let h = std::hash::BuildHasherDefault::<LitHasher>::default();
    cube.iter()
        .fold(0, |s, l| s | 1u64 << (h.hash_one(l) >> 58))
}

/// A multiplicative hash (Fibonacci hashing: the top bits of the product with an odd constant
/// near `2^64/φ`), enough to spread literal codes over 64 signature bits and far cheaper per
/// literal than the standard library's SipHash.
#[derive(Default)]
struct LitHasher(u64);

impl Hasher for LitHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The lemmas of a number of places (see the module doc), as cubes of `L`.
#[derive(Clone, Debug)]
pub struct Frames<L> {
    /// `places[p][j]`: the cubes of the lemmas of place `p` stored at level `j`.
    places: Vec<Vec<Vec<Vec<L>>>>,
    /// The signature of each cube of `places`, at the same indices.
    sigs: Vec<Vec<Vec<u64>>>,
    len: usize,
}

impl<L: Ord + Clone + Hash> Frames<L> {
    /// Frames without lemmas for `places` places.
    pub fn new(places: usize) -> Self {
        Frames {
            places: vec![Vec::new(); places],
            sigs: vec![Vec::new(); places],
            len: 0,
        }
    }

    /// Adds the lemma `¬cube` at `place` and `level`, removing the lemmas it subsumes; returns
    /// how many it removed.
    pub fn add(&mut self, place: usize, level: usize, cube: Vec<L>) -> usize {
        let (levels, sigs) = (&mut self.places[place], &mut self.sigs[place]);
        if levels.len() <= level {
            levels.resize_with(level + 1, Vec::new);
            sigs.resize_with(level + 1, Vec::new);
        }
        let sig = signature(&cube);
        let mut removed = 0;
        for (delta, dsigs) in levels[..=level].iter_mut().zip(&mut sigs[..=level]) {
            let mut kept = 0;
            for i in 0..delta.len() {
                if sig & !dsigs[i] == 0 && is_subset(&cube, &delta[i]) {
                    continue;
                }
                delta.swap(kept, i);
                dsigs[kept] = dsigs[i];
                kept += 1;
            }
            removed += delta.len() - kept;
            delta.truncate(kept);
            dsigs.truncate(kept);
        }
        levels[level].push(cube);
        sigs[level].push(sig);
        self.len = self.len + 1 - removed;
        removed
    }

    /// Whether a lemma of `place` at `level` or above excludes `cube` (is a subset of it).
    pub fn excludes(&self, place: usize, level: usize, cube: &[L]) -> bool {
        self.excluding(place, level, cube).is_some()
    }

    /// A lemma of `place` at `level` or above that excludes `cube`, if there is one.
    pub fn excluding(&self, place: usize, level: usize, cube: &[L]) -> Option<&[L]> {
        let sig = signature(cube);
        let levels = self.places[place].iter().zip(&self.sigs[place]).skip(level);
        levels
            .flat_map(|(d, s)| d.iter().zip(s))
            .find(|&(c, &s)| s & !sig == 0 && is_subset(c, cube))
            .map(|(c, _)| c.as_slice())
    }

    /// The lemmas stored at exactly `level` at `place`, in the order they were added.
    pub fn at(&self, place: usize, level: usize) -> &[Vec<L>] {
        self.places[place].get(level).map_or(&[], |d| d.as_slice())
    }

    /// Whether `cube` is stored at exactly `level` at `place`.
    pub fn contains(&self, place: usize, level: usize, cube: &[L]) -> bool {
        self.at(place, level).iter().any(|c| c.as_slice() == cube)
    }

    /// The lemmas of `place` at `level` or above (the frame `F_level`), with their levels.
    pub fn from(&self, place: usize, level: usize) -> impl Iterator<Item = (usize, &[L])> + '_ {
        self.places[place]
            .iter()
            .enumerate()
            .skip(level)
            .flat_map(|(j, d)| d.iter().map(move |c| (j, c.as_slice())))
    }

    /// Whether no place has a lemma stored at exactly `level`.
    pub fn delta_empty(&self, level: usize) -> bool {
        self.places
            .iter()
            .all(|levels| levels.get(level).is_none_or(|d| d.is_empty()))
    }

    /// The number of places.
    pub fn places(&self) -> usize {
        self.places.len()
    }

    /// The number of lemmas stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no lemma is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The frames' meaning, computed from every lemma ever added (none removed): `cube` is
    /// excluded at `level` when some lemma added at `level` or above is a subset of it.
    fn meaning(added: &[(usize, usize, Vec<u8>)], place: usize, level: usize, cube: &[u8]) -> bool {
        added
            .iter()
            .any(|(p, j, c)| *p == place && *j >= level && is_subset(c, cube))
    }

    fn cube() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::btree_set(0u8..6, 0..4).prop_map(|s| s.into_iter().collect())
    }

    proptest! {
        /// Subsumption never changes what the frames exclude, and a new lemma leaves none that
        /// it subsumes at its level or below.
        #[test]
        fn subsumption_keeps_the_meaning(
            adds in proptest::collection::vec((0usize..2, 1usize..5, cube()), 0..30),
            probes in proptest::collection::vec((0usize..2, 0usize..6, cube()), 20),
        ) {
            let mut f = Frames::new(2);
            for (p, j, c) in &adds {
                f.add(*p, *j, c.clone());
            }
            for (p, j, c) in &probes {
                prop_assert_eq!(f.excludes(*p, *j, c), meaning(&adds, *p, *j, c));
            }
            // The last lemma added subsumes no other of its place at its level or below.
            if let Some((p, j, c)) = adds.last() {
                let subsumed = f
                    .from(*p, 0)
                    .filter(|(k, d)| k <= j && is_subset(c, d))
                    .count();
                prop_assert_eq!(subsumed, 1);
            }
            prop_assert_eq!(f.from(0, 0).count() + f.from(1, 0).count(), f.len());
        }
    }

    #[test]
    fn deltas_and_pushing() {
        let mut f: Frames<u8> = Frames::new(2);
        f.add(0, 1, vec![1, 2]);
        f.add(1, 2, vec![3]);
        assert!(!f.delta_empty(1) && !f.delta_empty(2) && f.delta_empty(3));
        // Pushing `¬{1,2}` one level up leaves level 1 empty.
        assert_eq!(f.add(0, 2, vec![1, 2]), 1);
        assert!(f.delta_empty(1));
        assert!(f.contains(0, 2, &[1, 2]) && !f.contains(0, 1, &[1, 2]));
        // A weaker lemma at a lower level does not remove a stronger one above it.
        assert_eq!(f.add(0, 1, vec![1]), 0);
        assert_eq!(f.at(0, 1), &[vec![1]]);
        assert_eq!(f.len(), 3);
        assert_eq!(f.from(1, 0).count(), 1);
    }
}
