//! Generalisation of blocked cubes: literal dropping (MIC) with counterexamples to
//! generalisation (Hassan, Bradley, Somenzi: "Better generalization in IC3", FMCAD 2013).
//!
//! `mic(c, L)` shrinks a cube whose negation is inductive relative to `F_{L-1}`. For each
//! literal it tries `down(c \ {l})`: while the candidate is not inductive, a predecessor `s`
//! is either blocked one level lower as a CTG (when `s` is itself inductive relative to
//! `F_{L-2}`; at most `ctg_max` times, recursing `ctg_depth` levels), or the candidate is
//! intersected with `s` (which drops at least one literal, since `s` lies outside the
//! candidate). The candidate fails once it meets an initial state or becomes empty.

use super::query::{Interrupted, RelInd};
use super::{Cube, Pdr};
use crate::sat::Lit;

impl Pdr<'_> {
    pub(super) fn mic(
        &mut self,
        cube: Cube,
        level: usize,
        depth: usize,
    ) -> Result<Cube, Interrupted> {
        let mut c = cube;
        let mut i = 0;
        while i < c.len() && c.len() > 1 {
            let mut cand = c.clone();
            cand.remove(i);
            match self.down(cand, level, depth)? {
                Some(r) => c = r,
                None => i += 1,
            }
        }
        Ok(c)
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
                RelInd::Pred(s, _) => {
                    if self.opts.ctg
                        && depth > 0
                        && ctgs < self.opts.ctg_max
                        && level > 1
                        && !self.intersects_init(&s)?
                    {
                        if let RelInd::Holds(core) = self.relind(&s, level - 2)? {
                            ctgs += 1;
                            self.ctgs += 1;
                            let core = self.core_or(core, &s)?;
                            let g = self.mic(core, level - 1, depth - 1)?;
                            self.push_and_add(g, level - 1)?;
                            continue;
                        }
                    }
                    ctgs = 0;
                    c.retain(|l: &Lit| s.binary_search(l).is_ok());
                }
            }
        }
    }
}
