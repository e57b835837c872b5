//! Generalisation of blocked cubes: literal dropping (MIC) with counterexamples to
//! generalisation (Hassan, Bradley, Somenzi: "Better generalization in IC3", FMCAD 2013).
//!
//! `mic(c, L)` shrinks a cube whose negation is inductive relative to `F_{L-1}`
//! ([`drop_literals`] with PDR's query). For each literal it tries `down(c \ {l})`: while the
//! candidate is not inductive, a predecessor `s` (lifted toward the candidate when the system
//! allows it and the lifted cube excludes the initial states) is either blocked one level lower
//! as a CTG (when it is inductive relative to `F_{L-2}`; at most `ctg_max` times, recursing
//! `ctg_depth` levels), or the candidate is intersected with `s` (which drops at least one
//! literal, since `s` lies outside the candidate). The candidate fails once it meets an initial
//! state or becomes empty.
//!
//! The intersection step (`down`) makes one literal cost many queries when most literals are
//! needed. [`PdrOptions::down`](super::PdrOptions::down) turns it off (a literal whose CTGs
//! do not make it droppable is kept), and [`PdrOptions::dynamic`](super::PdrOptions::dynamic)
//! keeps it for obligations that come back, after the dynamic generalisation of rIC3;
//! [`PdrOptions::mic_attempts`](super::PdrOptions::mic_attempts) stops after that many
//! literals in a row were kept (Bradley's reference IC3). Without `down` and CTGs, each
//! literal costs one query, as in ABC's `pdr`.

use super::query::{Interrupted, RelInd};
use super::{Cube, Pdr};
use crate::engine::ic3::{self, Gen, Mic};
use crate::sat::Lit;

impl Pdr<'_> {
    /// MIC of `cube`, whose negation is inductive relative to `F_{level-1}`, with CTGs
    /// recursing `depth` levels.
    pub(super) fn mic(
        &mut self,
        cube: Cube,
        level: usize,
        depth: usize,
    ) -> Result<Cube, Interrupted> {
        // Try the literals that occur most in recent lemmas first (measured on the AIGER
        // benchmarks: fewer SAT calls than the reverse order or the cube's own order).
        let mut order = cube.clone();
        order.sort_by(|a, b| {
            self.activity[b.var().index()].total_cmp(&self.activity[a.var().index()])
        });
        let patience = self.opts.mic_attempts;
        ic3::mic(self, cube, &order, 1, patience, level, depth)
    }
}

impl Pdr<'_> {
    /// Blocks a counterexample to propagation (after rIC3): a state of `F_level` whose
    /// successor lies in `c`, which kept the lemma `¬c` from moving up. When the state (lifted
    /// toward `c`) excludes the initial states and is inductive relative to `F_{level-1}`, its
    /// generalisation becomes a lemma at `level`, and the push is worth trying again.
    pub(super) fn block_ctp(
        &mut self,
        c: &[Lit],
        s: &Cube,
        vals: &[bool],
        level: usize,
    ) -> Result<bool, Interrupted> {
        if level == 0 || self.intersects_init(s)? {
            return Ok(false);
        }
        let Some(core) = self.lifted_core(c, s, vals, level - 1)? else {
            return Ok(false);
        };
        self.ctps += 1;
        let g = self.mic(core, level, self.opts.ctg_depth)?;
        self.add_lemma(g, level, 1);
        Ok(true)
    }
}

impl Pdr<'_> {
    /// A state `s` (with the model's values `vals`) lifted toward `c` (a smaller cube to
    /// block, kept only when it excludes the initial states), and the core of its relative
    /// induction at `below` when that holds: what CTG and CTP blocking start from.
    fn lifted_core(
        &mut self,
        c: &[Lit],
        s: &Cube,
        vals: &[bool],
        below: usize,
    ) -> Result<Option<Cube>, Interrupted> {
        let g = self.state_cube(vals, Some(c))?;
        let g = if self.intersects_init(&g)? {
            s.clone()
        } else {
            g
        };
        let RelInd::Holds(core) = self.relind(&g, below)? else {
            return Ok(None);
        };
        self.core_or(core, &g).map(Some)
    }
}

/// A failing candidate's predecessor: its full latch cube and the model's values.
pub(super) type Failure = (Cube, Vec<bool>);

impl Mic for Pdr<'_> {
    type Lit = Lit;
    type Model = Failure;

    fn ctg_max(&self) -> usize {
        self.opts.ctg_max
    }

    fn admissible(&mut self, c: &[Lit]) -> Result<bool, Interrupted> {
        Ok(!c.is_empty() && !self.intersects_init(c)?)
    }

    fn query(
        &mut self,
        c: &[Lit],
        level: usize,
        _: usize,
    ) -> Result<Gen<Lit, Failure>, Interrupted> {
        Ok(match self.relind(c, level - 1)? {
            RelInd::Holds(core) => Gen::Holds(self.core_or(core, c)?),
            RelInd::Pred(s, vals) => Gen::Fails((s, vals)),
        })
    }

    fn block_ctg(
        &mut self,
        c: &[Lit],
        (s, vals): &Failure,
        level: usize,
        depth: usize,
    ) -> Result<bool, Interrupted> {
        if !self.opts.ctg || depth == 0 || level <= 1 || self.intersects_init(s)? {
            return Ok(false);
        }
        let Some(core) = self.lifted_core(c, s, vals, level - 2)? else {
            return Ok(false);
        };
        self.ctgs += 1;
        let g = self.mic(core, level - 1, depth - 1)?;
        self.push_and_add(g, level - 1)?;
        Ok(true)
    }

    fn down(&mut self, mut c: Cube, (s, _): Failure) -> Option<Cube> {
        if !(self.opts.down && self.may_go_down) {
            return None;
        }
        c.retain(|l: &Lit| s.binary_search(l).is_ok());
        Some(c)
    }
}
