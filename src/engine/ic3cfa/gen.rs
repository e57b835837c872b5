//! Generalisation of blocked cubes: per edge by literal dropping (`genMic`, with CTGs as an
//! option) or binary search (`genBinary`), after the generalisation contexts and the literals
//! the edge assumes (as options), united over the incoming edges; and the bit-level fallback for
//! equalities that word-level generalisation keeps enumerating.

use super::{Cores, Cube, Ic3cfa, Kind, Rel};
use crate::bv::TermId;
use crate::cfa::Loc;
use crate::engine::ic3::cube::union;
use crate::engine::ic3::{self, binary, Gen, Mic};
use crate::engine::Interrupted;

impl Ic3cfa<'_> {
    /// `genMic`: drops the literals of `free` one at a time while `support ∪ rest` passes,
    /// blocking counterexamples to generalisation first when [`Ic3cfaOptions::ctg`] is on
    /// (MIC of the IC3 template, along edge `e`).
    ///
    /// [`Ic3cfaOptions::ctg`]: super::Ic3cfaOptions::ctg
    pub(super) fn gen_mic(
        &mut self,
        e: usize,
        level: usize,
        free: Cube,
        support: &[TermId],
    ) -> Result<Cube, Interrupted> {
        let order = free.clone();
        let mut edge = EdgeMic {
            ic3: self,
            e,
            support,
        };
        ic3::mic(&mut edge, free, &order, 0, 0, level, 1)
    }

    /// After `candidate` failed along `e` at `level`: blocks the model's predecessor state at
    /// `e`'s source one level lower, if every edge into it refutes it there (IC3CFA thesis,
    /// the IC3CFA thesis, after Hassan, Bradley and Somenzi). CTGs are not blocked while one is.
    fn block_ctg(
        &mut self,
        e: usize,
        level: usize,
        candidate: &[TermId],
    ) -> Result<bool, Interrupted> {
        let from = self.cfa.edges[e].from;
        if !self.io.ctg || self.in_ctg || level < 2 || from == self.cfa.init {
            return Ok(false);
        }
        let (p, _) = self.predecessor(e, candidate);
        let Ok(cores) = self.edge_cores(from, level - 1, &p, Kind::Gen)? else {
            return Ok(false);
        };
        self.in_ctg = true;
        let g = self.generalise(level - 1, &p, cores);
        self.in_ctg = false;
        self.add_lemma(from, level - 1, g?);
        self.n.ctgs += 1;
        Ok(true)
    }

    /// `genBinary`: a subset `r` of `c` such that `support ∪ r` passes and no literal of `r`
    /// can be dropped; `support ∪ c` passes.
    pub(super) fn gen_binary(
        &mut self,
        e: usize,
        level: usize,
        c: Cube,
        support: &[TermId],
    ) -> Result<Cube, Interrupted> {
        binary(c, support, &mut |cube: &[TermId]| {
            Ok(self.passes(e, level, cube)?.is_some())
        })
    }

    /// The location-level generalisation of a blocked `cube`: the union of the edges'
    /// generalisations, each keeping what the earlier edges needed (the IC3CFA thesis). `cores` has, per
    /// incoming edge, the literals its relative induction needed, and whether they are already
    /// the edge's generalisation (a predecessor cube's).
    pub(super) fn generalise(
        &mut self,
        level: usize,
        cube: &[TermId],
        cores: Cores,
    ) -> Result<Cube, Interrupted> {
        let mut support: Cube = Vec::new();
        for (e, core, exact) in cores {
            let r = if exact {
                core
            } else {
                self.gen_edge(e, level, cube, core, &support)?
            };
            support = union(&support, &r);
        }
        Ok(support)
    }

    /// One edge's generalisation of `cube`, whose relative induction needed `core`, keeping
    /// `support`: an upper bound from the contexts if there is one, else literal dropping from
    /// `core` with the contexts' lower bound kept and the literals the edge assumes dropped.
    fn gen_edge(
        &mut self,
        e: usize,
        level: usize,
        cube: &[TermId],
        core: Cube,
        support: &[TermId],
    ) -> Result<Cube, Interrupted> {
        let from = self.cfa.edges[e].from.index();
        let contexts = self.io.contexts > 0;
        if contexts {
            if let Some(g) = self.contexts.upper(e, level, cube) {
                self.n.upper_hits += 1;
                return Ok(g);
            }
        }
        let mut necessary = support.to_vec();
        if contexts {
            if let Some(low) = self.contexts.lower(e, level, cube, self.stamps[from]) {
                self.n.lower_hits += 1;
                necessary = union(&necessary, &low);
            }
        }
        let mut free: Cube = core
            .into_iter()
            .filter(|t| necessary.binary_search(t).is_err())
            .collect();
        if self.io.assumed {
            let before = free.len();
            let mut kept = Vec::with_capacity(before);
            for t in free {
                if !self.assumed(e, t) {
                    kept.push(t);
                }
            }
            self.n.assumed_dropped += before - kept.len();
            free = kept;
        }
        let r = if free.is_empty() {
            free
        } else if free.len() > self.io.binary_above {
            self.gen_binary(e, level, free, &necessary)?
        } else {
            self.gen_mic(e, level, free, &necessary)?
        };
        let g = union(&necessary, &r);
        if contexts {
            let stamp = self.stamps[from];
            let minimal = support.is_empty();
            self.contexts
                .record(e, level, cube.to_vec(), g.clone(), minimal, stamp);
        }
        Ok(g)
    }

    /// The equality `t == c` of `g` whose term the lemmas of `loc` already exclude for
    /// [`Ic3cfaOptions::bits_after`] other constants (word-level generalisation may be
    /// enumerating values), if there is one: the literal, and `t == c` as a term and a value.
    /// Terms are compared as polynomials without their constants ([`super::offsets`]), so
    /// that `(x + 2) + (y − 2) == 1` and `x + y == 5` are the same sum at two constants.
    pub(super) fn enumerated(&mut self, loc: Loc, g: &[TermId]) -> Option<(TermId, TermId, u128)> {
        if self.io.bits_after == 0 {
            return None;
        }
        let (lemmas, offsets, tm) = (&self.lemmas, &mut self.offsets, &self.tm);
        let (lit, eq) = g.iter().find_map(|&lit| {
            let eq = offsets.read(tm, lit)?;
            let others = lemmas
                .from(loc.index(), 0)
                .filter(|(_, cube)| {
                    cube.iter().any(|&x| {
                        offsets
                            .read(tm, x)
                            .is_some_and(|o| o.poly == eq.poly && o.value != eq.value)
                    })
                })
                .count();
            (others >= self.io.bits_after).then_some((lit, eq))
        })?;
        Some((lit, self.offsets.term(&mut self.tm, eq), eq.value))
    }

    /// The bit-level fallback for a generalised cube `g` at `loc` and `level` that keeps an
    /// enumerated equality `t == c` ([`Ic3cfa::enumerated`]): the equality is replaced by its
    /// lowest `j` bits for each `j` of [`low_widths`], and the first such cube that every
    /// incoming edge refutes is generalised again (Jain1's `y == 0` becomes `y[0] == 0`). At
    /// most one query per `j` and edge before giving up, so state machines, whose state
    /// equalities rarely weaken to low bits, pay little.
    pub(super) fn bit_fallback(
        &mut self,
        loc: Loc,
        level: usize,
        g: &[TermId],
    ) -> Result<Option<Cube>, Interrupted> {
        let Some((lit, t, c)) = self.enumerated(loc, g) else {
            return Ok(None);
        };
        let rest: Cube = g.iter().copied().filter(|&x| x != lit).collect();
        let w = self.tm.width(t);
        for j in low_widths(c, w) {
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
    ) -> Result<Option<Cube>, Interrupted> {
        match self.edge_cores(loc, level, cube, Kind::Gen)? {
            Ok(cores) => self.generalise(level, cube, cores).map(Some),
            Err(_) => Ok(None),
        }
    }
}

/// The numbers of low bits the bit-level fallback tries for `t == c` on `w` bits, in
/// increasing order: the powers of two below `w`, and the bits up to `c`'s lowest one, which
/// are the fewest that exclude `c` when `t` stays a multiple of a power of two above it
/// (`4x − 2y + z == 2^20` with `x`, `y`, `z` moving by multiples of `2^20` and more).
fn low_widths(c: u128, w: u32) -> Vec<u32> {
    let mut js: Vec<u32> = std::iter::successors(Some(1u32), |j| Some(j * 2))
        .take_while(|&j| j < w)
        .collect();
    if c != 0 && c.trailing_zeros() + 1 < w {
        js.push(c.trailing_zeros() + 1);
    }
    js.sort_unstable();
    js.dedup();
    js
}

/// Literal dropping along one edge `e`, with the literals the earlier edges needed kept
/// (`support`): the candidates MIC sees are the rest of the edge's cube.
struct EdgeMic<'x, 'a, 's> {
    ic3: &'x mut Ic3cfa<'a>,
    e: usize,
    support: &'s [TermId],
}

impl Mic for EdgeMic<'_, '_, '_> {
    type Lit = TermId;
    type Model = ();

    fn ctg_max(&self) -> usize {
        self.ic3.io.ctg_max
    }

    fn admissible(&mut self, _: &[TermId]) -> Result<bool, Interrupted> {
        Ok(true)
    }

    fn query(
        &mut self,
        rest: &[TermId],
        level: usize,
        _: usize,
    ) -> Result<Gen<TermId, ()>, Interrupted> {
        let candidate = union(self.support, rest);
        Ok(
            match self.ic3.relind(self.e, level, &candidate, Kind::Gen)? {
                Rel::Holds(core, _) => {
                    Gen::Holds(rest.iter().copied().filter(|t| core.contains(t)).collect())
                }
                Rel::Fails => Gen::Fails(()),
            },
        )
    }

    fn block_ctg(
        &mut self,
        rest: &[TermId],
        _: &(),
        level: usize,
        _: usize,
    ) -> Result<bool, Interrupted> {
        let candidate = union(self.support, rest);
        self.ic3.block_ctg(self.e, level, &candidate)
    }

    fn down(&mut self, _: Cube, _: ()) -> Option<Cube> {
        None
    }
}
