//! Bounded loops with unwinding assertions, CBMC's `--unwind N --unwinding-assertions` on a
//! CFA.
//!
//! Every loop gets a counter of the times its head has been reached since the loop was last
//! entered (the head is the first location of the loop's cycle: where the condition of a
//! `while` or `for` loop is evaluated, the start of a `do` loop's body): an edge that enters the head from outside the loop
//! sets it to 1, a back edge adds 1, and a back edge taken when the counter is already `N` goes
//! instead to a sink of its own, the loop's unwinding assertion. So a loop's head is reached at
//! most `N` times per entry, and its body runs at most `N` times (a `for` loop of 1000
//! iterations evaluates its condition 1001 times: it needs `N = 1001`, as with CBMC).
//! The edges leaving the initial location first set every counter to 0, so that a counter is
//! written before it is read even where a jump enters a loop in its middle.
//!
//! Back edges are those of a depth-first search from the initial location
//! ([`Cfa::back_edges`]); every cycle contains one, so every run of the bounded CFA ends.
//! The bounded CFA restricts the program's runs and adds nothing else: a run that reaches the
//! error location is a run of the program, and when neither the error location nor a sink is
//! reachable, no run of the program reaches the error location either (a run that did would
//! reach it in the bounded CFA or end in a sink on the way). When only a sink is reachable,
//! the answer is UNKNOWN with the assertion's reason, as for every other sink.

use super::{Cfa, Edge, Gcl, IntType, Loc, PVar, VarKind};

/// The reason of the sink of the unwinding assertion of the loop with head `head`.
fn reason(cfa: &Cfa, head: Loc, n: u32) -> String {
    let info = &cfa.locations[head.index()];
    let at = match info.loop_keyword.as_ref().or(info.pos.as_ref()) {
        Some(p) => format!("the loop at line {}", p.line),
        None => format!("the loop at location {head}"),
    };
    format!("unwinding assertion: {at} reaches its condition more than {n} times")
}

/// `cfa` with every loop bounded to `n ≥ 1` visits of its head per entry (see the module doc).
pub fn bound_loops(cfa: &Cfa, n: u32) -> Cfa {
    assert!(n >= 1, "an unwinding bound is at least 1");
    let mut out = cfa.clone();
    let back = cfa.back_edges();
    let mut heads: Vec<Loc> = back
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b)
        .map(|(e, _)| cfa.edges[e].to)
        .collect();
    heads.sort();
    heads.dedup();
    if heads.is_empty() {
        return out;
    }
    let width = 32 - n.leading_zeros();
    let ty = IntType {
        width,
        signed: false,
    };
    let mut counter: Vec<Option<PVar>> = vec![None; cfa.locations.len()];
    let mut sink: Vec<Option<Loc>> = vec![None; cfa.locations.len()];
    for &h in &heads {
        let pos = cfa.locations[h.index()].loop_keyword.clone();
        let name = format!("__unwind_{}", h.index());
        counter[h.index()] = Some(out.add_var(name, ty, VarKind::Temporary, pos));
        sink[h.index()] = Some(out.sink(&reason(cfa, h, n)));
    }
    let origin = out.add_origin(None, "unwinding counter".to_string());
    let check = out.add_origin(None, "unwinding assertion".to_string());
    out.origins[check.0 as usize].check = true;
    let zero = out.tm.bv_const(0, width);
    let one = out.tm.bv_const(1, width);
    let bound = out.tm.bv_const(u128::from(n), width);
    let reset: Vec<Gcl> = heads
        .iter()
        .filter_map(|h| counter[h.index()])
        .map(|c| Gcl::Assign(c, zero, origin))
        .collect();
    let mut edges = Vec::with_capacity(cfa.edges.len() + heads.len());
    for (i, e) in cfa.edges.iter().enumerate() {
        let mut cmd = if e.from == cfa.init {
            Gcl::Seq(reset.clone()).then(e.cmd.clone())
        } else {
            e.cmd.clone()
        };
        let Some(c) = counter[e.to.index()] else {
            edges.push(Edge { cmd, ..e.clone() });
            continue;
        };
        if !back[i] {
            cmd = cmd.then(Gcl::Assign(c, one, origin));
            edges.push(Edge { cmd, ..e.clone() });
            continue;
        }
        let term = out.vars[c.index()].term;
        let below = out.tm.ult(term, bound);
        let above = out.tm.not(below);
        let next = out.tm.add(term, one);
        let again = cmd
            .clone()
            .then(Gcl::Assume(below, origin))
            .then(Gcl::Assign(c, next, origin));
        edges.push(Edge {
            from: e.from,
            to: e.to,
            cmd: again,
        });
        let to = sink[e.to.index()].expect("every head has a sink");
        edges.push(Edge {
            from: e.from,
            to,
            cmd: cmd.then(Gcl::Assume(above, check)),
        });
    }
    out.edges = edges;
    out
}
