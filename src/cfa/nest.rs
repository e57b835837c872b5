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
//! where `s`'s count `N` is assigned the number of iterations to the exit when the exit's
//! guard says it (`j < M` with `j` moving by one: `M − j`; see [`Shape::counted_body`]), so
//! that a variable the inner loop accumulates moves by a constant in every whole run. The
//! second edge is a sequence of steps of the accelerated CFA (`e`, then `s` with its proved
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
use crate::bv::{Node, Op, TermId};
use std::collections::BTreeMap;

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
        let body = self.counted_body(out, origin);
        out.edges[self.enter.index()].cmd = Gcl::Seq(vec![
            enter.clone(),
            havoc.clone(),
            Gcl::Assume(enter_now, origin),
        ]);
        let cmd = Gcl::Seq(vec![
            enter,
            havoc,
            Gcl::Assume(whole, origin),
            body,
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

    /// The inner loop's jumping command, its count `N` assigned the number of iterations after
    /// the first that take the loop to its exit, when the exit's guard says it: for a
    /// variable `v` moving by +1, `¬(v < M)` leaves after `M − v` more, `¬(v ≤ M)` after
    /// `M − v + 1`; by −1, `¬(M < v)` after `v − M`, `¬(M ≤ v)` after `v − M + 1`, with `M`
    /// read by no moving variable (`v` read after the first iteration). The count is a
    /// value the havoc could take, so the run is one the loop can make; when it is not the
    /// exit's, the whole run's condition fails and the step is not taken. Otherwise the
    /// command as it stands. An accumulator of the inner loop then moves by a constant in
    /// every whole run, which the outer loop's jump needs.
    fn counted_body(&self, out: &mut Cfa, origin: super::OriginId) -> Gcl {
        let body = out.edges[self.body.index()].cmd.clone();
        let Gcl::Seq(parts) = &body else { return body };
        let (Some(first), Some(Gcl::Havoc(n, HavocKind::Iterations, _))) =
            (parts.first(), parts.get(1))
        else {
            return body;
        };
        let Some(moves) = super::accel::increments(out, first) else {
            return body;
        };
        let leave = out.edges[self.leave.index()].cmd.clone();
        let Some(count) = exit_count(out, &moves, &leave) else {
            return body;
        };
        let mut parts = parts.clone();
        parts[1] = Gcl::Assign(*n, count, origin);
        Gcl::Seq(parts)
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

/// The iterations after the first to the exit whose guard is `leave`'s first assumption (see
/// [`Shape::counted_body`]), as a count-width term over the current values.
fn exit_count(out: &mut Cfa, moves: &BTreeMap<PVar, i128>, leave: &Gcl) -> Option<TermId> {
    let guard = match leave {
        Gcl::Assume(c, _) => *c,
        Gcl::Seq(parts) => parts.iter().find_map(|p| match p {
            Gcl::Assume(c, _) => Some(*c),
            _ => None,
        })?,
        _ => return None,
    };
    let tm = &mut out.tm;
    let Node::App(Op::Not, _) = tm.node(guard) else {
        return None;
    };
    let stay = tm.args(guard)[0];
    let Node::App(op @ (Op::Ult | Op::Slt | Op::Ule | Op::Sle), _) = tm.node(stay) else {
        return None;
    };
    let (a, b) = (tm.args(stay)[0], tm.args(stay)[1]);
    let moving = |t: TermId| {
        let var = out.vars.iter().position(|v| v.term == t)?;
        moves.get(&PVar(var as u32)).map(|&d| (var, d))
    };
    let fixed = |t: TermId| {
        tm.free_vars(t).iter().all(|x| {
            !moves
                .keys()
                .any(|v| tm.as_var(out.vars[v.index()].term) == Some(*x))
        })
    };
    let strict = matches!(op, Op::Ult | Op::Slt);
    // `v < M` (+1) or `M < v` (−1): the count is the distance, one more when not strict.
    let distance = match (moving(a), moving(b)) {
        (Some((_, 1)), None) if fixed(b) => tm.sub(b, a),
        (None, Some((_, -1))) if fixed(a) => tm.sub(b, a),
        _ => return None,
    };
    let distance = match strict {
        true => distance,
        false => {
            let one = tm.bv_const(1, tm.width(distance));
            tm.add(distance, one)
        }
    };
    Some(tm.resize(distance, COUNT_WIDTH, false))
}
