//! Folding loops of a fixed trip count: `y = 0; while (y < 10) y++;` becomes part of the edge
//! that enters it, so that a loop around it is a self-loop that
//! [`accelerate`](super::accelerate) can make jump (and BMC takes the whole loop in one step).
//!
//! A location `H` is folded when its only incoming edges are one edge `e` from another location
//! and one self-loop `s`, and every other edge leaving `H` leaves it for good. Its loop is
//! executed symbolically from the state `e` produces (from an arbitrary state, with arbitrary
//! nondet values): when, at each iteration, the guards of `s` and of the exits are constants
//! (the variables they read hold constants that `e` and `s` set), the loop runs the same number
//! `k` of times (at most [`MAX_FOLD`], with the folded edge at most 4096 atomic commands) on
//! every execution through `e` and leaves through the same exit `x`. The edges
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

/// The most atomic commands a folded edge may have (a folded loop around a folded loop
/// multiplies the copies, and a loop after a folded one extends the folded edge).
const MAX_ATOMS: usize = 4096;

/// `cfa` with every loop of a fixed trip count (at most [`MAX_FOLD`]) folded into the edge
/// that enters it, and the folded loop heads (numbered as in `cfa`); `None` when there is
/// none.
pub fn fold_fixed_loops(cfa: &Cfa) -> Option<(Cfa, Vec<Loc>)> {
    // Removed edges become `None`, so that edge indices stay valid until the end.
    let mut edges: Vec<Option<Edge>> = cfa.edges.iter().cloned().map(Some).collect();
    let (mut inc, mut out) = (cfa.in_edges(), cfa.out_edges());
    let mut tm = cfa.tm.clone();
    let mut folded = Vec::new();
    // A fold changes the edges of the entry edge's source and of the exit's target; only
    // those locations are looked at again.
    let mut work: Vec<Loc> = (0..cfa.locations.len() as u32).rev().map(Loc).collect();
    while let Some(h) = work.pop() {
        let edge = |e: EdgeId| edges[e.index()].as_ref().expect("a live edge");
        let Some(fold) = foldable(cfa, &mut tm, &edge, &inc[h.index()], &out[h.index()]) else {
            continue;
        };
        let (enter, exit) = (edge(fold.enter), edge(fold.exit));
        let (source, target) = (enter.from, exit.to);
        let mut cmd = vec![enter.cmd.clone()];
        cmd.extend((0..fold.iterations).map(|_| edge(fold.body).cmd.clone()));
        cmd.push(exit.cmd.clone());
        let leaving: Vec<(EdgeId, Loc)> = out[h.index()].iter().map(|&e| (e, edge(e).to)).collect();
        for (e, to) in leaving {
            inc[to.index()].retain(|&x| x != e);
            edges[e.index()] = None;
        }
        edges[fold.enter.index()] = Some(Edge {
            from: source,
            to: target,
            cmd: Gcl::Seq(cmd),
        });
        inc[h.index()].clear();
        out[h.index()].clear();
        inc[target.index()].push(fold.enter);
        inc[target.index()].sort();
        folded.push(h);
        work.retain(|&l| l != source && l != target);
        work.extend([source, target]);
    }
    let edges = edges.into_iter().flatten().collect();
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
/// when it has the shape and a fixed trip count; the symbolic execution works in `tm`, a copy
/// of the CFA's manager.
fn foldable<'e>(
    cfa: &Cfa,
    tm: &mut TermManager,
    edge: &dyn Fn(EdgeId) -> &'e Edge,
    inc: &[EdgeId],
    out: &[EdgeId],
) -> Option<Fold> {
    let (selfs, enters): (Vec<EdgeId>, Vec<EdgeId>) =
        inc.iter().partition(|&&e| edge(e).from == edge(e).to);
    let (&[body], &[enter]) = (&selfs[..], &enters[..]) else {
        return None;
    };
    let exits: Vec<EdgeId> = out.iter().copied().filter(|&e| e != body).collect();
    let body_atoms = edge(body).cmd.atom_count();
    let mut atoms = edge(enter).cmd.atom_count()
        + exits
            .iter()
            .map(|&x| edge(x).cmd.atom_count())
            .max()
            .unwrap_or(0);
    let mut fresh = |tm: &mut TermManager, v: PVar, _| {
        let w = cfa.vars[v.index()].ty.width;
        let n = tm.vars().len();
        tm.var(format!("fold:{n}"), Sort::Bv(w))
    };
    let mut run = |tm: &mut TermManager, e: EdgeId, env: &Env| {
        symex::exec(&cfa.vars, tm, &edge(e).cmd, env.clone(), &mut fresh)
    };
    let mut env = run(tm, enter, &Env::new()).env;
    for iterations in 0..=MAX_FOLD {
        let again = run(tm, body, &env);
        let mut taken = Vec::new();
        for &x in &exits {
            let g = run(tm, x, &env).guard;
            if tm.is_true(g) {
                taken.push(x);
            } else if !tm.is_false(g) {
                return None;
            }
        }
        atoms += body_atoms;
        match (
            tm.is_true(again.guard),
            tm.is_false(again.guard),
            &taken[..],
        ) {
            (true, _, []) if atoms <= MAX_ATOMS => env = again.env,
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
