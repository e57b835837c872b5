//! MIC with counterexamples to generalisation, written once: literal dropping
//! ([`drop_literals`]) where each candidate goes through `down` (Bradley, "SAT-Based Model
//! Checking without Unrolling"; Hassan, Bradley, Somenzi, "Better Generalization in IC3"):
//! while the candidate fails, the model's predecessor is blocked one level lower as a CTG
//! (at most [`Mic::ctg_max`] times in a row), or the candidate is cut down to the predecessor
//! (where the variant allows it), or the candidate fails.
//!
//! A variant supplies the query and what it does with a failing model through [`Mic`]; PDR
//! asks for a latch cube, IC3CFA for a cube along one edge with the literals the other edges
//! needed kept ([`Mic::query`] sees the candidate without them).

use super::drop_literals;
use crate::engine::Interrupted;

/// The answer of a generalisation query.
pub enum Gen<L, M> {
    /// The candidate holds; the sub-cube of it that the proof needed.
    Holds(Vec<L>),
    /// It fails, with the model's predecessor.
    Fails(M),
}

/// What literal dropping needs from a variant.
pub trait Mic {
    /// A literal of a cube.
    type Lit: Ord + Copy;
    /// A failing query's predecessor.
    type Model;

    /// How many CTGs in a row one candidate may block.
    fn ctg_max(&self) -> usize;
    /// Whether `candidate` may be asked at all (it must exclude the initial states).
    fn admissible(&mut self, candidate: &[Self::Lit]) -> Result<bool, Interrupted>;
    /// Is the candidate inductive relative to the frame below `level`?
    fn query(
        &mut self,
        candidate: &[Self::Lit],
        level: usize,
        depth: usize,
    ) -> Result<Gen<Self::Lit, Self::Model>, Interrupted>;
    /// Blocks the predecessor in `model` one level below `level` as a CTG, with the candidate
    /// it refuted; whether it did.
    fn block_ctg(
        &mut self,
        candidate: &[Self::Lit],
        model: &Self::Model,
        level: usize,
        depth: usize,
    ) -> Result<bool, Interrupted>;
    /// The candidate cut down to the predecessor in `model` (`down`), or `None` to give up.
    fn down(&mut self, candidate: Vec<Self::Lit>, model: Self::Model) -> Option<Vec<Self::Lit>>;
}

/// Drops the literals of `cube` in `order` while the rest holds at `level` (see the module
/// doc), down to `floor` literals, stopping after `patience` failures in a row (0: never);
/// `depth` is how many levels of CTGs may still recurse.
pub fn mic<M: Mic>(
    m: &mut M,
    cube: Vec<M::Lit>,
    order: &[M::Lit],
    floor: usize,
    patience: usize,
    level: usize,
    depth: usize,
) -> Result<Vec<M::Lit>, Interrupted> {
    drop_literals(cube, order, floor, patience, |candidate| {
        down(m, candidate, level, depth)
    })
}

/// `down`: the candidate, or a sub-cube of it, that holds at `level`, with CTGs blocked first.
fn down<M: Mic>(
    m: &mut M,
    mut c: Vec<M::Lit>,
    level: usize,
    depth: usize,
) -> Result<Option<Vec<M::Lit>>, Interrupted> {
    let mut ctgs = 0;
    loop {
        if !m.admissible(&c)? {
            return Ok(None);
        }
        match m.query(&c, level, depth)? {
            Gen::Holds(g) => return Ok(Some(g)),
            Gen::Fails(model) => {
                if ctgs < m.ctg_max() && m.block_ctg(&c, &model, level, depth)? {
                    ctgs += 1;
                    continue;
                }
                match m.down(c, model) {
                    Some(smaller) => {
                        ctgs = 0;
                        c = smaller;
                    }
                    None => return Ok(None),
                }
            }
        }
    }
}
