//! The loop invariants of a correctness witness, from an engine's inductive invariant per
//! location of the verified CFA.
//!
//! A location that heads a loop (the front end records the loop keyword's position) gives the
//! invariant at that keyword. The engine's invariant speaks about CFA variables, and a witness
//! must speak C at the loop, so a conjunct is kept only when every variable it reads:
//!
//! - is a program variable (global, local or parameter; not a temporary or a nondet result,
//!   not an array element, which the CFA names after its index);
//! - is in scope at the loop keyword: a global declared before it (not a function's static
//!   local), or a local or parameter of
//!   the loop's function whose declaration comes before the keyword and whose block ends
//!   after it;
//! - is the only variable in scope there with its C name (a local that shadows a global or an
//!   outer local, or a function inlined at several calls, whose copies share one C name, makes
//!   the name ambiguous);
//! - is live at the location in the verified CFA: a dead variable's value may differ from the
//!   program's, since passes drop assignments that nothing reads.
//!
//! Copy propagation may have replaced a variable initialised from a nondet call
//! (`unsigned n = __VERIFIER_nondet_uint();`) by the call's result everywhere. Such a result is
//! written as the variable when the program as written makes them equal at every loop head
//! ([`aliases`]).
//!
//! Dropping conjuncts only weakens an invariant, so what is kept still holds at the loop. A loop
//! with several copies in the CFA (a function inlined at several calls) gets the disjunction of
//! the copies' invariants, and none when one copy has no invariant text.

use super::LoopInvariant;
use crate::cfa::{live_variables, Cfa, Loc, SrcPos, VarInfo, VarKind};
use crate::engine::Conjunct;
use std::collections::{BTreeMap, HashMap};

/// What the conjuncts left out were about, for the caller to report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Conjuncts left out because a variable could not be named at the loop.
    pub conjuncts: usize,
    /// Loop heads without an invariant (no copy of it has one, or one copy has none).
    pub loops: usize,
}

/// The loop invariants of `cfa` (derived by passes from `original`, the CFA the front end
/// built, with the same variables) from the per-location invariant `inv`, and what was left
/// out.
pub fn loop_invariants(
    original: &Cfa,
    cfa: &Cfa,
    inv: &[(Loc, Vec<Conjunct>)],
) -> (Vec<LoopInvariant>, Dropped) {
    let live = live_variables(cfa);
    let aliases = aliases(original);
    let by_name: HashMap<&str, usize> = cfa
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), i))
        .collect();
    let at: HashMap<Loc, &[Conjunct]> = inv.iter().map(|(l, c)| (*l, c.as_slice())).collect();
    let mut out = Vec::new();
    let mut dropped = Dropped::default();
    for copies in loop_heads(cfa).values() {
        let first = &cfa.locations[copies[0].index()];
        let (Some(keyword), Some(function)) = (first.loop_keyword.clone(), first.function.clone())
        else {
            dropped.loops += 1;
            continue;
        };
        let names = nameable(cfa, &function, &keyword);
        let mut parts = Vec::new();
        for &l in copies {
            let Some(conjuncts) = at.get(&l) else {
                parts.clear();
                break;
            };
            let mut kept: Vec<Conjunct> = Vec::new();
            for c in conjuncts.iter() {
                match written_at(cfa, &by_name, &aliases, &live[l.index()], &names, c) {
                    Some(c) => kept.push(c),
                    None => dropped.conjuncts += 1,
                }
            }
            parts.push(Conjunct::join(&kept));
        }
        if parts.is_empty() || parts.iter().all(|p| p == "1") {
            dropped.loops += 1;
            continue;
        }
        out.push(LoopInvariant {
            pos: keyword,
            function: function.to_string(),
            value: disjunction(parts),
        });
    }
    (out, dropped)
}

/// The copies of each loop head of `cfa`, by the position of the loop's keyword.
fn loop_heads(cfa: &Cfa) -> BTreeMap<(String, u32, u32), Vec<Loc>> {
    let mut heads: BTreeMap<(String, u32, u32), Vec<Loc>> = BTreeMap::new();
    for (i, info) in cfa.locations.iter().enumerate() {
        if let Some(k) = &info.loop_keyword {
            heads
                .entry((k.file.to_string(), k.line, k.col))
                .or_default()
                .push(Loc(i as u32));
        }
    }
    heads
}

/// A conjunct as written at a location, each nondet result it reads written as the program
/// variable that always equals it (`aliases`); none when it reads a variable that is not
/// `live` there or that `names` says cannot be named there. `by_name` gives the index of each
/// variable of `cfa` by its name.
fn written_at(
    cfa: &Cfa,
    by_name: &HashMap<&str, usize>,
    aliases: &HashMap<usize, usize>,
    live: &[bool],
    names: &[bool],
    c: &Conjunct,
) -> Option<Conjunct> {
    let mut text = c.text.clone();
    for name in &c.vars {
        let &v = by_name.get(name.as_str())?;
        // The variable the C reader names: `v` itself, or the program variable that always
        // equals it.
        let named = aliases.get(&v).copied().unwrap_or(v);
        if !(live[v] && names[named]) {
            return None;
        }
        if named != v {
            let from = crate::ts::invariants::c_name(name);
            let to = c_base(&cfa.vars[named]).unwrap_or_default();
            text = replace_identifier(&text, &from, to);
        }
    }
    Some(Conjunct {
        text,
        vars: c.vars.clone(),
    })
}

/// The invariant of a loop from those of its copies: the one copy's, or their disjunction.
fn disjunction(mut parts: Vec<String>) -> String {
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        parts
            .iter()
            .map(|p| format!("({p})"))
            .collect::<Vec<_>>()
            .join(" || ")
    }
}

/// The C name of a program variable (without its function prefix and copy suffix), or `None`
/// for what is not a program variable — or not one whose value is the C value: a general
/// pointer (an object number and an offset, wider than any C integer) has no C expression.
pub(super) fn c_base(info: &VarInfo) -> Option<&str> {
    if !matches!(
        info.kind,
        VarKind::Global | VarKind::Local | VarKind::Parameter
    ) || !matches!(info.ty.width, 1 | 8 | 16 | 32 | 64)
    {
        return None;
    }
    let name = info.name.rsplit("::").next().unwrap_or(&info.name);
    let base = name.split('#').next().unwrap_or(name);
    (!base.contains('[')).then_some(base)
}

/// Whether `a` comes before `b` in the same file.
fn before(a: &SrcPos, b: &SrcPos) -> bool {
    a.file == b.file && (a.line, a.col) < (b.line, b.col)
}

/// Whether a program variable is in scope at a loop keyword of `function`.
fn in_scope(info: &VarInfo, function: &str, keyword: &SrcPos) -> bool {
    let declared_before = info.pos.as_ref().is_some_and(|p| before(p, keyword));
    match info.kind {
        // A static local of some function is a global of the CFA named after its function:
        // not in scope elsewhere, and not named here.
        VarKind::Global => declared_before && !info.name.contains("::"),
        _ => {
            let own = info
                .name
                .split_once("::")
                .is_some_and(|(f, _)| f == function);
            own && declared_before
                && info
                    .scope_end
                    .as_ref()
                    .is_some_and(|end| before(keyword, end))
        }
    }
}

/// For each variable, whether it can be written by its C name at a position (a loop keyword,
/// a statement's start) in `function`: a program variable in scope there, and the only one in
/// scope with that name.
pub(super) fn nameable(cfa: &Cfa, function: &str, keyword: &SrcPos) -> Vec<bool> {
    let visible: Vec<Option<&str>> = cfa
        .vars
        .iter()
        .map(|w| c_base(w).filter(|_| in_scope(w, function, keyword)))
        .collect();
    let mut namesakes: HashMap<&str, usize> = HashMap::new();
    for base in visible.iter().flatten() {
        *namesakes.entry(base).or_default() += 1;
    }
    cfa.vars
        .iter()
        .zip(&visible)
        .map(|(info, base)| base.is_some_and(|b| !info.name.contains('#') && namesakes[b] == 1))
        .collect()
}

/// Nondet results that equal a program variable wherever a loop head can see them: the result
/// `x` of a call is havocked by one edge only, whose target's only edge is `v := x`, the only
/// assignment of the program variable `v` (so the two are written together, one statement
/// apart, and never otherwise). Keyed by the result's index.
fn aliases(cfa: &Cfa) -> HashMap<usize, usize> {
    use crate::cfa::{Gcl, PVar};
    let mut havocs: HashMap<PVar, usize> = HashMap::new();
    let mut assigns: HashMap<PVar, usize> = HashMap::new();
    for e in &cfa.edges {
        e.cmd.for_each_atom(&mut |a| match a {
            Gcl::Havoc(v, ..) => *havocs.entry(*v).or_default() += 1,
            Gcl::Assign(v, ..) => *assigns.entry(*v).or_default() += 1,
            _ => {}
        });
    }
    let out_edges = cfa.out_edges();
    let mut in_count = vec![0usize; cfa.locations.len()];
    for e in &cfa.edges {
        in_count[e.to.index()] += 1;
    }
    let mut out = HashMap::new();
    for e in &cfa.edges {
        let Gcl::Havoc(x, _, _) = &e.cmd else {
            continue;
        };
        if cfa.var(*x).kind != VarKind::Nondet || havocs.get(x) != Some(&1) {
            continue;
        }
        let next = &out_edges[e.to.index()];
        if next.len() != 1 || in_count[e.to.index()] != 1 {
            continue;
        }
        if let Gcl::Assign(v, t, _) = &cfa.edge(next[0]).cmd {
            if *t == cfa.var(*x).term
                && assigns.get(v) == Some(&1)
                && !havocs.contains_key(v)
                && c_base(cfa.var(*v)).is_some()
            {
                out.insert(x.0 as usize, v.0 as usize);
            }
        }
    }
    out
}

/// `text` with every whole-identifier occurrence of `from` replaced by `to`.
fn replace_identifier(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before_ok = rest[..i].chars().next_back().is_none_or(|c| !is_ident(c));
        let after_ok = rest[i + from.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_ident(c));
        out.push_str(&rest[..i]);
        out.push_str(if before_ok && after_ok { to } else { from });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}
