//! Passes that remove parts of a CFA: unreachable locations, dead assignments (live-variable
//! analysis) and the cone of influence of the targets (slicing).
//!
//! `Havoc`s that come from calls (`__VERIFIER_nondet_*`, undefined functions) are never removed,
//! even when their variable is dead: they consume nondet values, and keeping them keeps the
//! nondet sequence of an execution (and of a trace) the same before and after a pass.

use super::{Cfa, Edge, Gcl, Loc, LocInfo, LocKind, PVar};
use std::collections::HashMap;

/// Removes the locations that are not reachable from the initial location and renumbers the
/// others (init, error and exit are always kept).
pub fn remove_unreachable(cfa: &Cfa) -> Cfa {
    let out = cfa.out_edges();
    let mut seen = vec![false; cfa.locations.len()];
    let mut stack = vec![cfa.init];
    seen[cfa.init.index()] = true;
    while let Some(l) = stack.pop() {
        for &e in &out[l.index()] {
            let t = cfa.edge(e).to;
            if !seen[t.index()] {
                seen[t.index()] = true;
                stack.push(t);
            }
        }
    }
    for l in [cfa.error, cfa.exit] {
        seen[l.index()] = true;
    }
    let mut map = vec![None; cfa.locations.len()];
    let mut locations: Vec<LocInfo> = Vec::new();
    for (i, info) in cfa.locations.iter().enumerate() {
        if seen[i] {
            map[i] = Some(Loc(locations.len() as u32));
            locations.push(info.clone());
        }
    }
    let m = |l: Loc| map[l.index()].unwrap_or(l);
    let edges = cfa
        .edges
        .iter()
        .filter(|e| seen[e.from.index()])
        .map(|e| Edge {
            from: m(e.from),
            to: m(e.to),
            cmd: e.cmd.clone(),
        })
        .collect();
    let mut c = cfa.with_edges(edges);
    c.locations = locations;
    c.init = m(cfa.init);
    c.error = m(cfa.error);
    c.exit = m(cfa.exit);
    c
}

/// A set of program variables as a bit set.
#[derive(Clone, PartialEq, Eq)]
struct VarSet(Vec<u64>);

impl VarSet {
    fn new(n: usize) -> VarSet {
        VarSet(vec![0; n.div_ceil(64)])
    }
    fn has(&self, v: PVar) -> bool {
        self.0
            .get(v.index() / 64)
            .is_some_and(|w| w >> (v.index() % 64) & 1 == 1)
    }
    fn add(&mut self, v: PVar) {
        if let Some(w) = self.0.get_mut(v.index() / 64) {
            *w |= 1 << (v.index() % 64);
        }
    }
    fn remove(&mut self, v: PVar) {
        if let Some(w) = self.0.get_mut(v.index() / 64) {
            *w &= !(1 << (v.index() % 64));
        }
    }
    fn union(&mut self, o: &VarSet) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn intersect(&mut self, o: &VarSet) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= b;
        }
    }
}

/// Applies `g` to the set of definitely written variables, recording reads of the others.
fn must_write(g: &Gcl, w: &mut VarSet, reads: &mut Reads, bad: &mut VarSet) {
    let mut read = |t: crate::bv::TermId, w: &VarSet, bad: &mut VarSet| {
        for &v in reads.of(t) {
            if !w.has(v) {
                bad.add(v);
            }
        }
    };
    match g {
        Gcl::Assume(t, _) => read(*t, w, bad),
        Gcl::Assign(x, t, _) => {
            read(*t, w, bad);
            w.add(*x);
        }
        Gcl::Havoc(x, _, _) => w.add(*x),
        Gcl::Seq(gs) => gs.iter().for_each(|g| must_write(g, w, reads, bad)),
        Gcl::Choice(gs) => {
            let mut acc: Option<VarSet> = None;
            for g in gs {
                let mut wa = w.clone();
                must_write(g, &mut wa, reads, bad);
                match &mut acc {
                    None => acc = Some(wa),
                    Some(a) => a.intersect(&wa),
                }
            }
            if let Some(a) = acc {
                *w = a;
            }
        }
    }
}

/// The variables that may be read before any write on some path from the initial location.
pub fn uninitialized_reads(cfa: &Cfa) -> Vec<PVar> {
    let nv = cfa.vars.len();
    let mut reads = Reads {
        cfa,
        memo: HashMap::new(),
    };
    let mut at: Vec<Option<VarSet>> = vec![None; cfa.locations.len()];
    at[cfa.init.index()] = Some(VarSet::new(nv));
    let mut bad = VarSet::new(nv);
    let mut changed = true;
    while changed {
        changed = false;
        for e in &cfa.edges {
            let Some(mut w) = at[e.from.index()].clone() else {
                continue;
            };
            must_write(&e.cmd, &mut w, &mut reads, &mut bad);
            let slot = &mut at[e.to.index()];
            let new = match slot {
                None => w,
                Some(old) => {
                    let mut n = old.clone();
                    n.intersect(&w);
                    n
                }
            };
            if slot.as_ref() != Some(&new) {
                *slot = Some(new);
                changed = true;
            }
        }
    }
    (0..nv as u32).map(PVar).filter(|&v| bad.has(v)).collect()
}

/// Free variables of terms, memoised.
struct Reads<'a> {
    cfa: &'a Cfa,
    memo: HashMap<crate::bv::TermId, Vec<PVar>>,
}

impl<'a> Reads<'a> {
    fn of(&mut self, t: crate::bv::TermId) -> &[PVar] {
        let cfa = self.cfa;
        self.memo.entry(t).or_insert_with(|| {
            cfa.tm
                .free_vars(t)
                .into_iter()
                .map(|v| cfa.pvar(v))
                .collect()
        })
    }
}

/// The variables live before `g` when `live` are live after it.
fn live_before(g: &Gcl, live: &VarSet, reads: &mut Reads) -> VarSet {
    match g {
        Gcl::Assume(t, _) => {
            let mut l = live.clone();
            reads.of(*t).iter().for_each(|&v| l.add(v));
            l
        }
        Gcl::Assign(x, t, _) => {
            let mut l = live.clone();
            l.remove(*x);
            reads.of(*t).iter().for_each(|&v| l.add(v));
            l
        }
        Gcl::Havoc(x, _, _) => {
            let mut l = live.clone();
            l.remove(*x);
            l
        }
        Gcl::Seq(gs) => gs
            .iter()
            .rev()
            .fold(live.clone(), |l, g| live_before(g, &l, reads)),
        Gcl::Choice(gs) => {
            let mut l = VarSet::new(reads.cfa.vars.len());
            for g in gs {
                l.union(&live_before(g, live, reads));
            }
            l
        }
    }
}

/// `g` without the writes of variables that are dead afterwards.
fn drop_dead(g: &Gcl, live: &VarSet, reads: &mut Reads) -> Gcl {
    match g {
        Gcl::Assign(x, _, _) if !live.has(*x) => Gcl::skip(),
        Gcl::Havoc(x, k, _) if !live.has(*x) && !k.is_call() => Gcl::skip(),
        Gcl::Seq(gs) => {
            let mut l = live.clone();
            let mut out = Vec::new();
            for g in gs.iter().rev() {
                let ng = drop_dead(g, &l, reads);
                l = live_before(g, &l, reads);
                if !ng.is_skip() {
                    out.push(ng);
                }
            }
            out.reverse();
            if out.len() == 1 {
                out.pop().unwrap_or_else(Gcl::skip)
            } else {
                Gcl::Seq(out)
            }
        }
        Gcl::Choice(gs) => Gcl::Choice(gs.iter().map(|g| drop_dead(g, live, reads)).collect()),
        g => g.clone(),
    }
}

/// `g` without the writes of variables outside `rel`.
fn drop_irrelevant(g: &Gcl, rel: &VarSet) -> Gcl {
    match g {
        Gcl::Assign(x, _, _) if !rel.has(*x) => Gcl::skip(),
        Gcl::Havoc(x, k, _) if !rel.has(*x) && !k.is_call() => Gcl::skip(),
        Gcl::Seq(gs) => gs
            .iter()
            .map(|g| drop_irrelevant(g, rel))
            .fold(Gcl::skip(), |acc, g| acc.then(g)),
        Gcl::Choice(gs) => Gcl::Choice(gs.iter().map(|g| drop_irrelevant(g, rel)).collect()),
        g => g.clone(),
    }
}

/// The variables live at each location (read on some path before being written).
fn live_sets(cfa: &Cfa, reads: &mut Reads) -> Vec<VarSet> {
    let mut live = vec![VarSet::new(cfa.vars.len()); cfa.locations.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for e in cfa.edges.iter().rev() {
            let before = live_before(&e.cmd, &live[e.to.index()], reads);
            let mut merged = live[e.from.index()].clone();
            merged.union(&before);
            if merged != live[e.from.index()] {
                live[e.from.index()] = merged;
                changed = true;
            }
        }
    }
    live
}

/// For each location, whether each variable is live there: read on some path from the
/// location before it is written.
pub fn live_variables(cfa: &Cfa) -> Vec<Vec<bool>> {
    let mut reads = Reads {
        cfa,
        memo: HashMap::new(),
    };
    live_sets(cfa, &mut reads)
        .iter()
        .map(|s| (0..cfa.vars.len()).map(|v| s.has(PVar(v as u32))).collect())
        .collect()
}

/// Dead-variable elimination: removes assignments (and havocs of uninitialised declarations)
/// whose variable is not read before it is written again or the execution ends.
pub fn eliminate_dead_variables(cfa: &Cfa) -> Cfa {
    let mut reads = Reads {
        cfa,
        memo: HashMap::new(),
    };
    let live = live_sets(cfa, &mut reads);
    let edges = cfa
        .edges
        .iter()
        .map(|e| Edge {
            from: e.from,
            to: e.to,
            cmd: drop_dead(&e.cmd, &live[e.to.index()], &mut reads),
        })
        .collect();
    cfa.with_edges(edges)
}

/// Cone of influence: keeps the writes of the variables that the guards (transitively) depend
/// on, and removes the edges into locations from which no target (error or sink) is reachable.
/// The reachability of the error location and of each sink is kept (executions that end
/// without reaching a target may end differently, e.g. blocked instead of exiting).
pub fn cone_of_influence(cfa: &Cfa) -> Cfa {
    let nv = cfa.vars.len();
    let mut reads = Reads {
        cfa,
        memo: HashMap::new(),
    };
    let mut rel = VarSet::new(nv);
    for e in &cfa.edges {
        e.cmd.for_each_atom(&mut |g| {
            if let Gcl::Assume(t, _) = g {
                for &v in reads.of(*t) {
                    rel.add(v);
                }
            }
        });
    }
    let mut changed = true;
    while changed {
        changed = false;
        for e in &cfa.edges {
            e.cmd.for_each_atom(&mut |g| {
                if let Gcl::Assign(x, t, _) = g {
                    if rel.has(*x) {
                        for &v in reads.of(*t) {
                            if !rel.has(v) {
                                rel.add(v);
                                changed = true;
                            }
                        }
                    }
                }
            });
        }
    }
    // Locations from which a target is reachable.
    let inc = cfa.in_edges();
    let mut useful = vec![false; cfa.locations.len()];
    let mut stack: Vec<Loc> = (0..cfa.locations.len() as u32)
        .map(Loc)
        .filter(|&l| matches!(cfa.kind(l), LocKind::Error | LocKind::Sink(_)))
        .collect();
    for &l in &stack {
        useful[l.index()] = true;
    }
    while let Some(l) = stack.pop() {
        for &e in &inc[l.index()] {
            let f = cfa.edge(e).from;
            if !useful[f.index()] {
                useful[f.index()] = true;
                stack.push(f);
            }
        }
    }
    let edges = cfa
        .edges
        .iter()
        .filter(|e| useful[e.to.index()])
        .map(|e| Edge {
            from: e.from,
            to: e.to,
            cmd: drop_irrelevant(&e.cmd, &rel),
        })
        .collect();
    remove_unreachable(&cfa.with_edges(edges))
}
