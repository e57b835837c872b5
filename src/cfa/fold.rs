//! Folding inner loops of a fixed trip count: `y = 0; while (y < 10) y++;` inside another loop
//! becomes part of the edge that enters it, so that the outer loop is a self-loop that
//! [`accelerate`](super::accelerate) can make jump.
//!
//! A location `H` is folded when its only incoming edges are one edge `e` from another location
//! and one self-loop `s`, and every other edge leaving `H` leaves it for good. Its loop is
//! executed symbolically from the state `e` produces (from an arbitrary state, with arbitrary
//! nondet values): when, at each iteration, the guards of `s` and of the exits are constants
//! (the variables they read hold constants that `e` and `s` set), the loop runs the same number
//! `k` of times (at most [`MAX_FOLD`], and the `k` copies of `s` at most 4096 atomic commands)
//! on every execution through `e` and leaves through the same exit `x`. The edges
//! `e`, `s` and the exits are then replaced by one edge `e; s; …; s; x` (`k` copies of `s`) from
//! `e`'s source to `x`'s target, and `H`, which nothing enters any more, is removed.
//!
//! The folded edge is the sequence of the commands the original CFA executes along that path,
//! with every assume kept, so it reaches exactly the states the original reaches at the target
//! and consumes the same nondet values in the same order (the interpreter replays it as it
//! stands). Its guard is `e`'s (the rest always completes), so the edges leaving `e`'s source
//! stay mutually exclusive.

use super::symex::{self, Env};
use super::{remove_unreachable, Cfa, Edge, EdgeId, Gcl, Loc, PVar};
use crate::bv::{Sort, TermManager};

/// The most iterations a folded loop may run.
pub const MAX_FOLD: usize = 64;

/// The most atomic commands the copies of a loop's body may have together (a folded loop
/// around a folded loop multiplies the copies).
const MAX_ATOMS: usize = 4096;

/// `cfa` with every inner loop of a fixed trip count (at most [`MAX_FOLD`]) folded into the
/// edge that enters it, and the folded loop heads (numbered as in `cfa`); `None` when there is
/// none.
pub fn fold_fixed_loops(cfa: &Cfa) -> Option<(Cfa, Vec<Loc>)> {
    let mut edges = cfa.edges.clone();
    let mut folded = Vec::new();
    // Each fold removes a location's edges; a folded edge may make another loop foldable.
    loop {
        let current = cfa.with_edges(edges.clone());
        let (inc, out) = (current.in_edges(), current.out_edges());
        let Some((head, fold)) = (0..cfa.locations.len())
            .find_map(|h| foldable(&current, &inc[h], &out[h]).map(|f| (Loc(h as u32), f)))
        else {
            break;
        };
        let mut cmd = vec![current.edge(fold.enter).cmd.clone()];
        cmd.extend((0..fold.iterations).map(|_| current.edge(fold.body).cmd.clone()));
        cmd.push(current.edge(fold.exit).cmd.clone());
        let edge = Edge {
            from: current.edge(fold.enter).from,
            to: current.edge(fold.exit).to,
            cmd: Gcl::Seq(cmd),
        };
        edges[fold.enter.index()] = edge;
        edges = edges
            .into_iter()
            .enumerate()
            .filter(|&(i, ref e)| i == fold.enter.index() || e.from != head)
            .map(|(_, e)| e)
            .collect();
        folded.push(head);
    }
    (!folded.is_empty()).then(|| (remove_unreachable(&cfa.with_edges(edges)), folded))
}

/// A loop to fold: the edge entering it, its self-loop, how often that runs, and the exit.
struct Fold {
    enter: EdgeId,
    body: EdgeId,
    iterations: usize,
    exit: EdgeId,
}

/// The fold of the loop at the location whose incoming and outgoing edges are `inc` and `out`,
/// when it has the shape and a fixed trip count.
fn foldable(cfa: &Cfa, inc: &[EdgeId], out: &[EdgeId]) -> Option<Fold> {
    let is = |e: EdgeId| cfa.edge(e);
    let (selfs, enters): (Vec<EdgeId>, Vec<EdgeId>) =
        inc.iter().partition(|&&e| is(e).from == is(e).to);
    let (&[body], &[enter]) = (&selfs[..], &enters[..]) else {
        return None;
    };
    let exits: Vec<EdgeId> = out.iter().copied().filter(|&e| e != body).collect();
    let body_atoms = is(body).cmd.atom_count();
    let mut tm = cfa.tm.clone();
    let mut fresh_count = 0u32;
    let mut fresh = |tm: &mut TermManager, v: PVar| {
        fresh_count += 1;
        let w = cfa.vars[v.index()].ty.width;
        tm.var(format!("fold:{fresh_count}"), Sort::Bv(w))
    };
    let mut env: Env = symex::exec(&cfa.vars, &mut tm, &is(enter).cmd, Env::new(), &mut fresh).env;
    for iterations in 0..=MAX_FOLD {
        let again = symex::exec(&cfa.vars, &mut tm, &is(body).cmd, env.clone(), &mut fresh);
        let mut taken = Vec::new();
        for &x in &exits {
            let g = symex::exec(&cfa.vars, &mut tm, &is(x).cmd, env.clone(), &mut fresh).guard;
            if tm.is_true(g) {
                taken.push(x);
            } else if !tm.is_false(g) {
                return None;
            }
        }
        match (
            tm.is_true(again.guard),
            tm.is_false(again.guard),
            &taken[..],
        ) {
            (true, _, []) if (iterations + 1) * body_atoms <= MAX_ATOMS => env = again.env,
            (_, true, &[exit]) => {
                return Some(Fold {
                    enter,
                    body,
                    iterations,
                    exit,
                })
            }
            _ => return None,
        }
    }
    None
}
