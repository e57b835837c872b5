//! Constant and copy propagation.
//!
//! A forward data-flow analysis computes, at each location, facts `x = c` (a constant) and
//! `x = y` (a copy of another variable) that hold on every path reaching it (the meet is the
//! intersection). Each command is then rewritten with the facts that hold before it: terms are
//! substituted (and folded by the term manager), `Assume(false)` alternatives and edges are
//! dropped, and trivially true assumes become `skip`. Behaviour is kept exactly; the assignments
//! that become dead are left to [`super::eliminate_dead_variables`].

use super::{Cfa, Edge, Gcl, PVar};
use crate::bv::TermId;
use std::collections::HashMap;

type Facts = HashMap<PVar, TermId>;

fn kill(f: &mut Facts, cfa: &Cfa, x: PVar) {
    f.remove(&x);
    let xt = cfa.var(x).term;
    f.retain(|_, t| *t != xt);
}

fn subst(cfa: &mut Cfa, f: &Facts, t: TermId) -> TermId {
    super::symex::subst(&cfa.vars, &mut cfa.tm, t, f)
}

/// Applies `g` to the facts; with `rewrite`, returns the rewritten command too. `None` means the
/// command can never complete.
fn step(cfa: &mut Cfa, g: &Gcl, f: &mut Facts) -> Option<Gcl> {
    match g {
        Gcl::Assume(t, o) => {
            let nt = subst(cfa, f, *t);
            if cfa.tm.is_false(nt) {
                None
            } else if cfa.tm.is_true(nt) {
                Some(Gcl::skip())
            } else {
                Some(Gcl::Assume(nt, *o))
            }
        }
        Gcl::Assign(x, t, o) => {
            let nt = subst(cfa, f, *t);
            kill(f, cfa, *x);
            let is_const = cfa.tm.const_value(nt).is_some();
            let copy = cfa.tm.as_var(nt).map(|v| cfa.pvar(v)).filter(|v| v != x);
            if is_const || copy.is_some() {
                f.insert(*x, nt);
            }
            Some(Gcl::Assign(*x, nt, *o))
        }
        Gcl::Havoc(x, _, _) => {
            kill(f, cfa, *x);
            Some(g.clone())
        }
        Gcl::Seq(gs) => {
            let mut acc = Gcl::skip();
            for g in gs {
                acc = acc.then(step(cfa, g, f)?);
            }
            Some(acc)
        }
        Gcl::Choice(alts) => {
            let mut out = Vec::new();
            let mut meet: Option<Facts> = None;
            for a in alts {
                let mut fa = f.clone();
                if let Some(na) = step(cfa, a, &mut fa) {
                    out.push(na);
                    meet = Some(match meet {
                        None => fa,
                        Some(m) => intersect(&m, &fa),
                    });
                }
            }
            *f = meet?;
            if out.len() == 1 {
                out.pop()
            } else {
                Some(Gcl::Choice(out))
            }
        }
    }
}

fn intersect(a: &Facts, b: &Facts) -> Facts {
    a.iter()
        .filter(|(k, v)| b.get(k) == Some(v))
        .map(|(k, v)| (*k, *v))
        .collect()
}

/// Constant and copy propagation (see the module doc).
pub fn propagate_constants_and_copies(cfa: &Cfa) -> Cfa {
    let mut work = cfa.clone();
    let n = cfa.locations.len();
    let mut at: Vec<Option<Facts>> = vec![None; n];
    at[cfa.init.index()] = Some(Facts::new());
    let out = cfa.out_edges();
    let mut queue = vec![cfa.init];
    let mut queued = vec![false; n];
    queued[cfa.init.index()] = true;
    while let Some(l) = queue.pop() {
        queued[l.index()] = false;
        let Some(facts) = at[l.index()].clone() else {
            continue;
        };
        for &e in &out[l.index()] {
            let (to, cmd) = (cfa.edge(e).to, cfa.edge(e).cmd.clone());
            let mut f = facts.clone();
            if step(&mut work, &cmd, &mut f).is_none() {
                continue;
            }
            let new = match &at[to.index()] {
                None => f,
                Some(old) => intersect(old, &f),
            };
            if at[to.index()].as_ref() != Some(&new) {
                at[to.index()] = Some(new);
                if !queued[to.index()] {
                    queued[to.index()] = true;
                    queue.push(to);
                }
            }
        }
    }
    let mut edges = Vec::new();
    for e in &cfa.edges {
        let Some(facts) = at[e.from.index()].clone() else {
            continue;
        };
        let mut f = facts;
        if let Some(cmd) = step(&mut work, &e.cmd, &mut f) {
            edges.push(Edge {
                from: e.from,
                to: e.to,
                cmd,
            });
        }
    }
    work.edges = edges;
    super::remove_unreachable(&work)
}
