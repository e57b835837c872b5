//! Large-block encoding: merges sequential chains and parallel edges until neither applies,
//! which also collapses loop-free diamonds.
//!
//! - Sequential: a location other than init/error/exit/sinks and other than a loop head (a
//!   back-edge target of a depth-first search, computed once on the input), with exactly one
//!   incoming edge `in`, not a self-loop, is removed and each outgoing edge `out` becomes an
//!   edge labelled `Seq(in, out)` from the source of `in` (rule 1 of large-block encoding,
//!   Beyer et al., as "Improving the IC3CFA generalisation" applies it). With more than one
//!   outgoing edge this copies `in`, so it is done only for up to [`MAX_FANOUT`] outgoing
//!   edges and [`MAX_COPIED_ATOMS`] copied atomic commands. The copies run in the order of the
//!   outgoing edges and, having one prefix, are exclusive as the outgoing edges were.
//! - Parallel: edges with the same source and target become one edge labelled
//!   `Choice(alternatives)` (in their original order).
//!
//! Loop heads are kept, so every cycle keeps a location. The interpreter's behaviour is kept:
//! a `Choice` tries its alternatives in order like a location tries its edges, and the guards of
//! parallel edges are mutually exclusive. Unreachable locations are removed first.

use super::{Cfa, Edge, Gcl, Loc, LocKind};

/// The large-block encoding of `cfa`.
// The adjacency lists are edited while locations are visited by index.
#[allow(clippy::needless_range_loop)]
pub fn large_block_encoding(cfa: &Cfa) -> Cfa {
    let cfa = super::remove_unreachable(cfa);
    let heads = cfa.loop_heads();
    let n = cfa.locations.len();
    let keep: Vec<bool> = (0..n)
        .map(|i| heads[i] || !matches!(cfa.locations[i].kind, LocKind::Normal))
        .collect();
    let mut g = Edges::new(&cfa);
    let mut changed = true;
    while changed {
        changed = false;
        for l in 0..n {
            changed |= g.merge_parallel(l);
        }
        // Sequential chains, and fan-outs.
        for l in 0..n {
            if !keep[l] {
                changed |= g.contract(l);
            }
        }
    }
    let kept: Vec<Edge> = g.edges.into_iter().flatten().collect();
    super::remove_unreachable(&cfa.with_edges(kept))
}

/// The edges of a CFA being merged (a merged edge leaves `None` behind), with the indices of
/// the edges leaving and entering each location.
struct Edges {
    edges: Vec<Option<Edge>>,
    out: Vec<Vec<usize>>,
    inc: Vec<Vec<usize>>,
}

impl Edges {
    fn new(cfa: &Cfa) -> Edges {
        let n = cfa.locations.len();
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut inc: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, e) in cfa.edges.iter().enumerate() {
            out[e.from.index()].push(i);
            inc[e.to.index()].push(i);
        }
        Edges {
            edges: cfa.edges.iter().cloned().map(Some).collect(),
            out,
            inc,
        }
    }

    /// Merges the edges from `l` to the same target into one choice; whether there were any.
    fn merge_parallel(&mut self, l: usize) -> bool {
        let edges = &mut self.edges;
        let mut by_target: Vec<(Loc, Vec<usize>)> = Vec::new();
        for &e in &self.out[l] {
            if let Some(ed) = &edges[e] {
                match by_target.iter_mut().find(|(t, _)| *t == ed.to) {
                    Some((_, v)) => v.push(e),
                    None => by_target.push((ed.to, vec![e])),
                }
            }
        }
        let mut changed = false;
        for (t, group) in by_target {
            if group.len() < 2 {
                continue;
            }
            let mut alts = Vec::new();
            for &e in &group {
                if let Some(ed) = edges[e].take() {
                    match ed.cmd {
                        Gcl::Choice(v) => alts.extend(v),
                        c => alts.push(c),
                    }
                }
            }
            let first = group[0];
            edges[first] = Some(Edge {
                from: Loc(l as u32),
                to: t,
                cmd: Gcl::Choice(alts),
            });
            self.out[l].retain(|&e| edges[e].is_some());
            self.inc[t.index()].retain(|&e| edges[e].is_some());
            changed = true;
        }
        changed
    }

    /// Removes `l` when it has one incoming edge: the edge is prefixed to each outgoing edge
    /// (a sequential chain, or a fan-out whose copies stay within the size bound); whether it
    /// did.
    fn contract(&mut self, l: usize) -> bool {
        let (edges, out) = (&mut self.edges, &mut self.out);
        if self.inc[l].len() != 1 || out[l].is_empty() {
            return false;
        }
        let ei = self.inc[l][0];
        let Some(a) = &edges[ei] else { return false };
        let copies = out[l].len();
        if out[l].contains(&ei)
            || (copies > 1
                && (copies > MAX_FANOUT || a.cmd.atom_count() * (copies - 1) > MAX_COPIED_ATOMS))
        {
            return false;
        }
        let Some(a) = edges[ei].take() else {
            return false;
        };
        let from = a.from;
        out[from.index()].retain(|&e| e != ei);
        for eo in std::mem::take(&mut out[l]) {
            let Some(b) = edges[eo].take() else { continue };
            let to = b.to;
            edges[eo] = Some(Edge {
                from,
                to,
                cmd: a.cmd.clone().then(b.cmd),
            });
            out[from.index()].push(eo);
        }
        self.inc[l].clear();
        true
    }
}

/// The most outgoing edges of a location removed by a fan-out.
const MAX_FANOUT: usize = 4;

/// The most atomic commands a fan-out may copy (the incoming edge's, once per extra copy).
const MAX_COPIED_ATOMS: usize = 64;

/// The largest number of choice-free paths one edge is split into.
pub const MAX_SPLIT_PATHS: usize = 4096;

/// The choice-free paths of a command (sequences of atomic commands), at most `limit`.
fn paths(g: &Gcl, limit: usize) -> Option<Vec<Vec<Gcl>>> {
    match g {
        Gcl::Seq(gs) => {
            let mut acc: Vec<Vec<Gcl>> = vec![Vec::new()];
            for g in gs {
                let ps = paths(g, limit)?;
                if acc.len().saturating_mul(ps.len()) > limit {
                    return None;
                }
                acc = acc
                    .iter()
                    .flat_map(|a| ps.iter().map(move |p| a.iter().chain(p).cloned().collect()))
                    .collect();
            }
            Some(acc)
        }
        Gcl::Choice(alts) => {
            let mut out = Vec::new();
            for a in alts {
                out.extend(paths(a, limit)?);
                if out.len() > limit {
                    return None;
                }
            }
            Some(out)
        }
        atom => Some(vec![vec![atom.clone()]]),
    }
}

/// `split`: every edge whose command contains a `Choice` is replaced by one parallel edge per
/// choice-free path (for predecessor computations by weakest preconditions). The paths of one
/// edge are mutually exclusive like the alternatives they come from, so behaviour is kept.
/// Returns `None` if an edge would need more than [`MAX_SPLIT_PATHS`] paths.
pub fn split_choices(cfa: &Cfa) -> Option<Cfa> {
    let mut edges = Vec::new();
    for e in &cfa.edges {
        for p in paths(&e.cmd, MAX_SPLIT_PATHS)? {
            let cmd = p.into_iter().fold(Gcl::skip(), Gcl::then);
            edges.push(Edge {
                from: e.from,
                to: e.to,
                cmd,
            });
        }
    }
    Some(cfa.with_edges(edges))
}
