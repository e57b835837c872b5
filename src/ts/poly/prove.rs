//! Proving candidate polynomial equalities on a program system's CFA, and the program's own
//! equalities that they imply.
//!
//! A candidate is "at location `l`, `q = 0`" with `q` a [`Poly`] over the state variables'
//! terms. The candidates form an inductive assertion map when, for every edge `l → l'` and
//! every candidate `q'` at `l'`, `q'` with the edge's symbolic execution substituted
//! (`q'(u(s))`, a polynomial over the values before the edge and the edge's nondet values)
//! reduces to 0 modulo the candidates at `l` and the equalities the edge's guard asserts
//! ([`Basis`]). The reduction is an identity in `Z/2^w`, so it holds in the program's
//! wrap-around arithmetic for all values: `q'(u(s)) = Σ c_i · h_i(s)` with every `h_i(s) = 0`.
//! Locations without candidates assert nothing (the initial one, where the variables are
//! arbitrary, in particular). Where an edge's values choose between branches (`ite`, from the
//! large-block encoding of an `if`), each combination of up to [`MAX_SPLIT`] conditions is a
//! case of its own, with the equalities its conditions assert. As in Houdini, a candidate
//! whose obligation fails on some edge is dropped and the rest checked again, until every
//! obligation of the survivors holds: they are then an inductive invariant of the CFA, and
//! so of the system, whose steps are the CFA's edges.
//!
//! The survivors speak of polynomials, the program of its own terms: an equality `a == b`
//! that the guard of an edge leaving `l` tests, over the state variables alone, holds at `l`
//! whenever `a - b` reduces to 0 modulo the survivors at `l`. Those are the [`Fact`]s; blasted
//! with the program's own bit-blasting, `a == b` is the very node the guard reads, so a SAT
//! solver given the fact as a constraint needs no arithmetic to use it.

use super::{Basis, Converter, Poly};
use crate::bv::{Node, Op, TermId, TermManager};
use crate::cfa::{Cfa, Loc, PVar};
use crate::ts::model::Model;
use crate::ts::program::ProgramSystem;
use std::collections::{HashMap, HashSet};

/// The most `ite` conditions of one edge split into cases.
pub const MAX_SPLIT: usize = 4;

/// A program equality that holds whenever the program counter is at `loc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    pub loc: Loc,
    /// A `bool` term `a == b` of the program system's terms, over state variables.
    pub eq: TermId,
}

/// What [`prove`] found.
#[derive(Clone, Debug, Default)]
pub struct Proved {
    /// The candidates that form an inductive assertion map, by location.
    pub invariants: Vec<(Loc, Poly)>,
    /// The program's equalities they imply.
    pub facts: Vec<Fact>,
    /// Rounds of the fixpoint.
    pub rounds: usize,
    /// Whether `stop` cut the search (nothing is then proved).
    pub stopped: bool,
}

/// The largest inductive subset of `candidates` (see the module doc) and the facts they
/// imply. `stop` is polled between edges.
pub fn prove(
    cfa: &Cfa,
    ps: &ProgramSystem,
    candidates: Vec<(Loc, Poly)>,
    stop: &dyn Fn() -> bool,
) -> Proved {
    let var_of: HashMap<TermId, PVar> = ps
        .state
        .iter()
        .map(|(v, _)| (cfa.var(*v).term, *v))
        .collect();
    let mut alive = vec![true; candidates.len()];
    let mut out = Proved::default();
    loop {
        out.rounds += 1;
        let bases = bases(&candidates, &alive);
        let mut changed = false;
        for (i, edge) in cfa.edges.iter().enumerate() {
            if stop() {
                out.stopped = true;
                return out;
            }
            let targets: Vec<usize> = (0..candidates.len())
                .filter(|&k| alive[k] && candidates[k].0 == edge.to)
                .collect();
            if targets.is_empty() {
                continue;
            }
            let edge_check = EdgeCheck {
                ps,
                edge: i,
                from: edge.from,
                var_of: &var_of,
            };
            for k in edge_check.failing(&candidates, &targets, &bases) {
                alive[k] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let bases = bases(&candidates, &alive);
    out.invariants = candidates
        .into_iter()
        .zip(&alive)
        .filter(|(_, &a)| a)
        .map(|(c, _)| c)
        .collect();
    out.facts = facts(cfa, ps, &bases, &var_of);
    out
}

/// The obligations of one edge.
struct EdgeCheck<'a> {
    ps: &'a ProgramSystem,
    edge: usize,
    from: Loc,
    /// The program variable of each state variable's term.
    var_of: &'a HashMap<TermId, PVar>,
}

impl EdgeCheck<'_> {
    /// Those of `targets` (candidates at the edge's target) whose obligation over the edge
    /// fails in some case of its `ite` conditions, given the candidates at its source
    /// (`bases`) and what the case asserts.
    fn failing(
        &self,
        candidates: &[(Loc, Poly)],
        targets: &[usize],
        bases: &HashMap<(Loc, u32), Basis>,
    ) -> Vec<usize> {
        let tm = &self.ps.tm;
        let exec = &self.ps.execs[self.edge];
        let written: Vec<TermId> = targets
            .iter()
            .flat_map(|&k| candidates[k].1.atoms())
            .filter_map(|a| self.var_of.get(&a).and_then(|v| exec.env.get(v)).copied())
            .collect();
        let conds = conditions(tm, &written);
        let mut out = Vec::new();
        for case in 0..1usize << conds.len() {
            let mut conv = Converter::new(tm);
            let mut asserted = vec![(exec.guard, true)];
            for (j, &c) in conds.iter().enumerate() {
                let b = (case >> j) & 1 == 1;
                conv.choice.insert(c, b);
                asserted.push((c, b));
            }
            let mut hyps: HashMap<u32, Basis> = HashMap::new();
            for &k in targets {
                let q = &candidates[k].1;
                let w = q.width();
                let basis = hyps.entry(w).or_insert_with(|| {
                    let mut b =
                        (bases.get(&(self.from, w)).cloned()).unwrap_or_else(|| Basis::new(w));
                    for &(t, pol) in &asserted {
                        for h in equalities(tm, &mut conv, t, pol, w) {
                            b.insert(&h);
                        }
                    }
                    b
                });
                let after = q.substitute(&mut |a| {
                    let value = exec.env.get(self.var_of.get(&a)?)?;
                    Some(conv.poly(*value, w))
                });
                if !after.is_some_and(|p| basis.implies_zero(&p)) && !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    }
}

/// The candidates alive at each location, as a basis per width.
fn bases(candidates: &[(Loc, Poly)], alive: &[bool]) -> HashMap<(Loc, u32), Basis> {
    let mut out: HashMap<(Loc, u32), Basis> = HashMap::new();
    for ((l, q), _) in candidates.iter().zip(alive).filter(|(_, &a)| a) {
        out.entry((*l, q.width()))
            .or_insert_with(|| Basis::new(q.width()))
            .insert(q);
    }
    out
}

/// The conditions of the bit-vector `ite`s that the arithmetic of `roots` reaches, at most
/// [`MAX_SPLIT`] of them.
fn conditions(tm: &TermManager, roots: &[TermId]) -> Vec<TermId> {
    let mut out: Vec<TermId> = Vec::new();
    let mut seen: HashSet<TermId> = HashSet::new();
    let mut todo: Vec<TermId> = roots.to_vec();
    while let Some(t) = todo.pop() {
        if !seen.insert(t) {
            continue;
        }
        let Node::App(op, _) = tm.node(t) else {
            continue;
        };
        let args = tm.args(t);
        match op {
            Op::Add | Op::Sub | Op::Neg | Op::Mul | Op::Shl => todo.extend_from_slice(args),
            Op::Extract { .. } | Op::Zext(_) | Op::Sext(_) | Op::Concat => {
                todo.extend_from_slice(args)
            }
            Op::Ite if !tm.sort(t).is_bool() => {
                if out.len() < MAX_SPLIT && !out.contains(&args[0]) {
                    out.push(args[0]);
                }
                if out.contains(&args[0]) {
                    todo.extend_from_slice(&args[1..]);
                }
            }
            _ => {}
        }
    }
    out
}

/// The polynomials of width `w` that `t` (a `bool` term) asserts to be 0 when its value is
/// `polarity`: the differences of the bit-vector equalities it implies through `and`, `or`
/// and `not`.
fn equalities(
    tm: &TermManager,
    conv: &mut Converter<'_>,
    t: TermId,
    polarity: bool,
    w: u32,
) -> Vec<Poly> {
    let mut out = Vec::new();
    let mut todo = vec![(t, polarity)];
    let mut seen: HashSet<(TermId, bool)> = HashSet::new();
    while let Some((t, pol)) = todo.pop() {
        if !seen.insert((t, pol)) || !tm.sort(t).is_bool() {
            continue;
        }
        let Node::App(op, _) = tm.node(t) else {
            continue;
        };
        let args = tm.args(t);
        match (op, pol) {
            (Op::Not, _) => todo.push((args[0], !pol)),
            (Op::And, true) | (Op::Or, false) => {
                todo.push((args[0], pol));
                todo.push((args[1], pol));
            }
            (Op::Eq, true) if !tm.sort(args[0]).is_bool() && tm.width(args[0]) >= w => {
                out.push(conv.poly(args[0], w).sub(&conv.poly(args[1], w)));
            }
            _ => {}
        }
    }
    out
}

/// The program equalities over state variables, tested by the guards of the edges leaving a
/// location, that the invariants there imply.
fn facts(
    cfa: &Cfa,
    ps: &ProgramSystem,
    bases: &HashMap<(Loc, u32), Basis>,
    var_of: &HashMap<TermId, PVar>,
) -> Vec<Fact> {
    let tm = &ps.tm;
    let mut out: Vec<Fact> = Vec::new();
    let mut conv = Converter::new(tm);
    for (i, edge) in cfa.edges.iter().enumerate() {
        let mut todo = vec![ps.execs[i].guard];
        let mut seen: HashSet<TermId> = HashSet::new();
        while let Some(t) = todo.pop() {
            if !seen.insert(t) {
                continue;
            }
            let Node::App(op, _) = tm.node(t) else {
                continue;
            };
            let args = tm.args(t);
            todo.extend_from_slice(args);
            if op == Op::Eq && !tm.sort(args[0]).is_bool() {
                let w = tm.width(args[0]);
                let Some(basis) = bases.get(&(edge.from, w)) else {
                    continue;
                };
                let d = conv.poly(args[0], w).sub(&conv.poly(args[1], w));
                let fact = Fact {
                    loc: edge.from,
                    eq: t,
                };
                if !d.is_zero()
                    && d.atoms().iter().all(|a| var_of.contains_key(a))
                    && basis.implies_zero(&d)
                    && !out.contains(&fact)
                {
                    out.push(fact);
                }
            }
        }
    }
    out
}

/// The program's model with `facts` as invariant constraints, "at `loc`, `eq`", after the
/// model's own: blasted as the program's system is ([`ProgramSystem::blast`]), so that the
/// latches and inputs are the same and each fact's equality is the node the guards read.
/// `None` when the latches or inputs came out otherwise (an internal error).
pub fn constrained(cfa: &Cfa, ps: &ProgramSystem, facts: &[Fact]) -> Option<Model> {
    let mut tm = ps.tm.clone();
    let constraints: Vec<TermId> = (facts.iter())
        .map(|f| {
            let at = ps.at_term(&mut tm, f.loc.index());
            tm.implies(at, f.eq)
        })
        .collect();
    let model = ps.blast(cfa, &tm, &ps.word_level, &[], &constraints).model;
    let same = |a: &Model, b: &Model| {
        a.latches.len() == b.latches.len()
            && a.inputs.len() == b.inputs.len()
            && (a.latches.iter().zip(&b.latches)).all(|(x, y)| x.node == y.node)
            && (a.inputs.iter().zip(&b.inputs)).all(|(x, y)| x.node == y.node)
    };
    (same(&model, &ps.model) && model.constraints.len() == ps.model.constraints.len() + facts.len())
        .then_some(model)
}
