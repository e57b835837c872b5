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
use crate::engine::ic3::drop_literals;
use crate::sat::Lit;

impl Pdr<'_> {
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
        drop_literals(cube, &order, 1, self.opts.mic_attempts, |candidate| {
            self.down(candidate, level, depth)
        })
    }

    fn down(
        &mut self,
        mut c: Cube,
        level: usize,
        depth: usize,
    ) -> Result<Option<Cube>, Interrupted> {
        let mut ctgs = 0;
        loop {
            if c.is_empty() || self.intersects_init(&c)? {
                return Ok(None);
            }
            match self.relind(&c, level - 1)? {
                RelInd::Holds(core) => return Ok(Some(self.core_or(core, &c)?)),
                RelInd::Pred(s, vals) => {
                    if self.opts.ctg
                        && depth > 0
                        && ctgs < self.opts.ctg_max
                        && level > 1
                        && !self.intersects_init(&s)?
                    {
                        // The CTG is lifted toward the candidate (a smaller cube to block).
                        let g = self.state_cube(&vals, Some(&c))?;
                        let g = if self.intersects_init(&g)? {
                            s.clone()
                        } else {
                            g
                        };
                        if let RelInd::Holds(core) = self.relind(&g, level - 2)? {
                            ctgs += 1;
                            self.ctgs += 1;
                            let core = self.core_or(core, &g)?;
                            let g = self.mic(core, level - 1, depth - 1)?;
                            self.push_and_add(g, level - 1)?;
                            continue;
                        }
                    }
                    if !(self.opts.down && self.may_go_down) {
                        return Ok(None);
                    }
                    ctgs = 0;
                    c.retain(|l: &Lit| s.binary_search(l).is_ok());
                }
            }
        }
    }
}
