//! Generalisation of blocked cubes: per edge by literal dropping (`genMic`) or binary search
//! (`genBinary`), united over the incoming edges, and the bit-level fallback for equalities that
//! word-level generalisation keeps enumerating.

use super::{Cube, Ic3cfa, Stopped};
use crate::bv::TermId;
use crate::cfa::Loc;
use crate::engine::cube::union;

impl Ic3cfa<'_> {
    /// `genMic`: drops the literals of `free` one at a time while `support ∪ rest` passes.
    pub(super) fn gen_mic(
        &mut self,
        e: usize,
        level: usize,
        free: Cube,
        support: &[TermId],
    ) -> Result<Cube, Stopped> {
        let mut res = free.clone();
        for p in free {
            if !res.contains(&p) {
                continue;
            }
            let tmp: Cube = res.iter().copied().filter(|&q| q != p).collect();
            if let Some(core) = self.passes(e, level, &union(support, &tmp))? {
                res = tmp.into_iter().filter(|t| core.contains(t)).collect();
            }
        }
        Ok(res)
    }

    /// `genBinary` (Bradley and Manna, as cleaned in T000-6): a subset `r` of `c` such that
    /// `support ∪ r` passes and no literal of `r` can be dropped; `support ∪ c` passes.
    pub(super) fn gen_binary(
        &mut self,
        e: usize,
        level: usize,
        c: Cube,
        support: &[TermId],
    ) -> Result<Cube, Stopped> {
        if c.len() <= 1 {
            return Ok(
                if c.is_empty() || self.passes(e, level, support)?.is_some() {
                    Vec::new()
                } else {
                    c
                },
            );
        }
        let (l, r) = c.split_at(c.len() / 2);
        let (l, r) = (l.to_vec(), r.to_vec());
        if self.passes(e, level, &union(support, &l))?.is_some() {
            return self.gen_binary(e, level, l, support);
        }
        if self.passes(e, level, &union(support, &r))?.is_some() {
            return self.gen_binary(e, level, r, support);
        }
        let l2 = self.gen_binary(e, level, l, &union(support, &r))?;
        let r2 = self.gen_binary(e, level, r, &union(support, &l2))?;
        Ok(union(&l2, &r2))
    }

    /// The location-level generalisation of a blocked cube: the union of the edges'
    /// generalisations, each starting from its query's failed literals and keeping what the
    /// earlier edges needed.
    pub(super) fn generalise(
        &mut self,
        level: usize,
        cores: Vec<(usize, Cube)>,
    ) -> Result<Cube, Stopped> {
        let mut support: Cube = Vec::new();
        for (e, core) in cores {
            let free: Cube = core.into_iter().filter(|t| !support.contains(t)).collect();
            if free.is_empty() {
                continue;
            }
            let r = if free.len() > self.io.binary_above {
                self.gen_binary(e, level, free, &support)?
            } else {
                self.gen_mic(e, level, free, &support)?
            };
            support = union(&support, &r);
        }
        Ok(support)
    }

    /// `t == c` when `lit` is an equality of a word term with a constant.
    pub(super) fn word_equality(&self, lit: TermId) -> Option<(TermId, u128)> {
        let [a, b] = match self.tm.node(lit) {
            crate::bv::Node::App(crate::bv::Op::Eq, [a, b, _]) => [a, b],
            _ => return None,
        };
        if self.tm.sort(a).is_bool() || self.tm.width(a) < 2 {
            return None;
        }
        match (self.tm.const_value(a), self.tm.const_value(b)) {
            (None, Some(c)) => Some((a, c)),
            (Some(c), None) => Some((b, c)),
            _ => None,
        }
    }

    /// The equality `t == c` of `g` whose term the lemmas of `loc` already exclude for
    /// [`Ic3cfaOptions::bits_after`] other constants (word-level generalisation may be
    /// enumerating values), if there is one.
    pub(super) fn enumerated(&self, loc: Loc, g: &[TermId]) -> Option<(TermId, TermId, u128)> {
        if self.io.bits_after == 0 {
            return None;
        }
        g.iter().find_map(|&lit| {
            let (t, c) = self.word_equality(lit)?;
            let others = self.lemmas[loc.index()]
                .iter()
                .filter(|m| {
                    m.cube
                        .iter()
                        .any(|&x| self.word_equality(x).is_some_and(|(u, d)| u == t && d != c))
                })
                .count();
            (others >= self.io.bits_after).then_some((lit, t, c))
        })
    }

    /// The bit-level fallback for a generalised cube `g` at `loc` and `level` that keeps an
    /// enumerated equality `t == c` ([`Ic3cfa::enumerated`]): the equality is replaced by its
    /// lowest `j` bits for `j = 1, 2, 4, …` below the width, and the first such cube that every
    /// incoming edge refutes is generalised again (Jain1's `y == 0` becomes `y[0] == 0`). At
    /// most one query per `j` and edge before giving up, so state machines, whose state
    /// equalities rarely weaken to low bits, pay little.
    pub(super) fn bit_fallback(
        &mut self,
        loc: Loc,
        level: usize,
        g: &[TermId],
    ) -> Result<Option<Cube>, Stopped> {
        let Some((lit, t, c)) = self.enumerated(loc, g) else {
            return Ok(None);
        };
        let rest: Cube = g.iter().copied().filter(|&x| x != lit).collect();
        let w = self.tm.width(t);
        let mut j = 1;
        while j < w {
            let low: Cube = (0..j)
                .map(|i| {
                    let bit = self.tm.extract(t, i, i);
                    let v = self.tm.bv_const((c >> i) & 1, 1);
                    self.tm.eq(bit, v)
                })
                .collect();
            let cube = union(&rest, &low);
            if let Some(finer) = self.regeneralise(loc, level, &cube)? {
                return Ok(Some(finer));
            }
            j *= 2;
        }
        Ok(None)
    }

    /// Generalises `cube` (which every incoming edge refutes at `level`) again from scratch;
    /// `None` if some edge does not refute it after all.
    pub(super) fn regeneralise(
        &mut self,
        loc: Loc,
        level: usize,
        cube: &[TermId],
    ) -> Result<Option<Cube>, Stopped> {
        let mut cores = Vec::new();
        for e in self.incoming[loc.index()].clone() {
            match self.passes(e, level, cube)? {
                Some(core) => cores.push((e, core)),
                None => return Ok(None),
            }
        }
        self.generalise(level, cores).map(Some)
    }
}
