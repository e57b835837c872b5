//! Summaries of nested loops: the whole run of an accelerated inner loop as one step of the
//! loop around it, so that the outer loop becomes a self-loop that can jump in turn.
//!
//! Take an inner loop head `H` whose self-loop `s` jumps (proved, see
//! [`accel`](super::accel)), entered by a single edge `e` from the outer loop head `P`, and
//! left back to `P` by a single edge `x` (`for (d = …) { for (e = 0; e < M; e++) …; }`, after
//! large-block encoding). The entry becomes two edges, told apart by a fresh nondet count `z`
//! (consumed after `e`'s own values, so the edges leaving `P` stay exclusive):
//!
//! ```text
//! P → H:  e; z := havoc; assume z = 0
//! P → P:  e; z := havoc; assume z ≠ 0; s; assume z = 1 + N; x     (N: the jump's count in s)
//! ```
//!
//! The second is a sequence of steps of the accelerated CFA (`e`, then `s` with its proved
//! jump over `N` more iterations, then `x`), so it reaches only states the program reaches;
//! `z` counts the inner loop's iterations, which is what a trace shows for it. It is kept only
//! when it makes `P` jump itself, proved as every jump is; then `P` may be the inner loop of a
//! loop around it, and so on outwards: five nested loops of `2^32 − 2` iterations each lead
//! BMC to their innermost statement in about ten steps.
//!
//! Such a step is not expanded into the program's own steps
//! ([`Accelerated::expand`](super::accel::Accelerated::expand) answers `None`): its
//! counterexamples are replayed on the accelerated CFA only, as those of jumps too long to
//! expand are, which the proofs of the jumps make sound.

use super::accel::{proved_jump, Prover, COUNT_WIDTH};
use super::{Cfa, Edge, EdgeId, Gcl, HavocKind, IntType, Loc, LocKind, PVar, VarKind};

/// Summarises every inner loop among `loops` (locations whose self-loop jumps) that makes the
/// loop around it jump (see the module doc), adding each outer loop to `loops`; the inner
/// loops summarised.
pub(super) fn summarize(out: &mut Cfa, loops: &mut Vec<Loc>, valid: &mut Prover<'_>) -> Vec<Loc> {
    let mut summarized = Vec::new();
    let mut tried = Vec::new();
    while let Some(&h) = loops.iter().find(|h| !tried.contains(*h)) {
        tried.push(h);
        let Some(shape) = Shape::of(out, h, &summarized) else {
            continue;
        };
        let before = out.clone();
        let composite = shape.install(out);
        if proved_jump(out, composite, valid) == Some(true) {
            summarized.push(h);
            if !loops.contains(&shape.outer) {
                loops.push(shape.outer);
            }
        } else {
            *out = before;
        }
    }
    summarized
}

/// An inner loop's edges: the one entering it from the outer head, its jumping self-loop,
/// and the one leaving it back to the outer head.
struct Shape {
    outer: Loc,
    inner: Loc,
    enter: EdgeId,
    body: EdgeId,
    leave: EdgeId,
}

impl Shape {
    /// The shape around the loop at `h`, when it has one: the outer head is where an edge
    /// leaving `h` leads, other than a loop inside `h` (one of `inside`, which `h`'s other
    /// edges lead to and come from).
    fn of(cfa: &Cfa, h: Loc, inside: &[Loc]) -> Option<Shape> {
        let (inc, out) = (cfa.in_edges(), cfa.out_edges());
        let edge = |e: &EdgeId| &cfa.edges[e.index()];
        let single = |es: Vec<EdgeId>| (es.len() == 1).then(|| es[0]);
        let body = single(
            inc[h.index()]
                .iter()
                .copied()
                .filter(|e| edge(e).from == h)
                .collect(),
        )?;
        out[h.index()].iter().find_map(|x| {
            let outer = edge(x).to;
            if outer == h
                || inside.contains(&outer)
                || cfa.locations[outer.index()].kind != LocKind::Normal
            {
                return None;
            }
            let between = |from: Loc, to: Loc| {
                let es = out[from.index()]
                    .iter()
                    .copied()
                    .filter(|e| edge(e).to == to);
                single(es.collect())
            };
            Some(Shape {
                outer,
                inner: h,
                enter: between(outer, h)?,
                body,
                leave: between(h, outer)?,
            })
        })
    }

    /// Splits the entry by a fresh count `z` and adds the whole run as a self-loop at the
    /// outer head; the new edge's index.
    fn install(&self, out: &mut Cfa) -> usize {
        let pos = out.locations[self.inner.index()].pos.clone();
        let origin = out.add_origin(
            pos.clone(),
            "(accelerated) the whole run of the loop at once".to_string(),
        );
        let ty = IntType {
            width: COUNT_WIDTH,
            signed: false,
        };
        let z = out.add_var(format!("{}#whole", self.inner), ty, VarKind::Nondet, pos);
        let count = jump_count(&out.edges[self.body.index()].cmd);
        let tm = &mut out.tm;
        let zt = out.vars[z.index()].term;
        let zero = tm.bv_const(0, COUNT_WIDTH);
        let one = tm.bv_const(1, COUNT_WIDTH);
        let enter_now = tm.eq(zt, zero);
        let whole = tm.not(enter_now);
        let iterations = match count {
            Some(n) => {
                let nt = out.vars[n.index()].term;
                let total = tm.add(nt, one);
                tm.eq(zt, total)
            }
            None => tm.tru(),
        };
        let enter = out.edges[self.enter.index()].cmd.clone();
        let havoc = Gcl::Havoc(z, HavocKind::Iterations, origin);
        out.edges[self.enter.index()].cmd = Gcl::Seq(vec![
            enter.clone(),
            havoc.clone(),
            Gcl::Assume(enter_now, origin),
        ]);
        let cmd = Gcl::Seq(vec![
            enter,
            havoc,
            Gcl::Assume(whole, origin),
            out.edges[self.body.index()].cmd.clone(),
            Gcl::Assume(iterations, origin),
            out.edges[self.leave.index()].cmd.clone(),
        ]);
        out.edges.push(Edge {
            from: self.outer,
            to: self.outer,
            cmd,
        });
        out.edges.len() - 1
    }
}

/// The count variable of the jump in a jumping self-loop's command (`cmd; N := havoc;
/// either …`: the havoc of an iteration count at its top level).
fn jump_count(cmd: &Gcl) -> Option<PVar> {
    let Gcl::Seq(parts) = cmd else { return None };
    parts.iter().find_map(|p| match p {
        Gcl::Havoc(n, HavocKind::Iterations, _) => Some(*n),
        _ => None,
    })
}
