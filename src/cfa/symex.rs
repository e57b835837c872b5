//! Symbolic execution of a guarded command: its guard, the new values of the variables it
//! writes, and how many nondet values it consumes, as terms over the values before it.
//!
//! The semantics is the interpreter's ([`super::interp`]), read symbolically:
//! - the nondet values of one step form *positions* `0, 1, 2, …`: the `k`-th `Havoc` executed on
//!   the path through the command takes the value at position `k` (truncated to its variable's
//!   width). A `Havoc` asks the caller for the value at its position (an input slot shared by
//!   every edge and alternative in the system encoding, a chosen term in folding and loop
//!   acceleration); where the position depends on which alternatives were taken before it, the
//!   value is an `ite` over the possible positions;
//! - `Assume` conjoins its condition to the guard; `Assign` substitutes; `Seq` composes;
//! - `Choice` tries its alternatives in order from the same state and the same position, and
//!   the first that completes is taken: alternative `a` is taken when it completes and no
//!   earlier one does, and the written values are merged with `ite` in that priority.
//!
//! The same executor serves the transition-system encoding, folding and loop acceleration, so
//! they all read a command as the interpreter runs it.

use super::{Gcl, PVar, VarInfo};
use crate::bv::{TermId, TermManager};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The values of the variables written so far; a variable not in the map keeps the value of
/// its own term.
pub type Env = HashMap<PVar, TermId>;

/// How many nondet values have been consumed: mutually exclusive cases `(count, when)`, in
/// increasing count, one of which holds whenever the path so far completes.
pub type Consumed = Vec<(usize, TermId)>;

/// The value a `Havoc` of a variable takes from a position of the step's nondet values.
pub type HavocValue<'a> = dyn FnMut(&mut TermManager, PVar, usize) -> TermId + 'a;

/// The result of executing a command: when it completes, what it writes, and how many nondet
/// values it consumes.
#[derive(Clone, Debug)]
pub struct Exec {
    /// When the command completes (over the values before it and the nondet values).
    pub guard: TermId,
    /// The value of every variable written, after the command.
    pub env: Env,
    /// The nondet values consumed when the command completes (positions `0..count`).
    pub consumed: Consumed,
}

impl Exec {
    /// The only possible number of consumed values, when it does not depend on the path.
    pub fn fixed_count(&self) -> Option<usize> {
        match self.consumed[..] {
            [(k, _)] => Some(k),
            _ => None,
        }
    }
}

/// The value of `v` in `env` (`vars` are the CFA's program variables).
pub fn value(vars: &[VarInfo], env: &Env, v: PVar) -> TermId {
    env.get(&v).copied().unwrap_or(vars[v.index()].term)
}

/// `t` with every variable written in `env` replaced by its value there.
pub fn subst(vars: &[VarInfo], tm: &mut TermManager, t: TermId, env: &Env) -> TermId {
    if env.is_empty() {
        return t;
    }
    let map: HashMap<TermId, TermId> = env
        .iter()
        .map(|(v, &x)| (vars[v.index()].term, x))
        .collect();
    tm.substitute(t, &map)
}

/// Executes `g` from `env` at position 0 in `tm` (a manager extending the CFA's, whose program
/// variables are `vars`); `havoc` gives the value of a `Havoc` of a variable at a position.
pub fn exec(
    vars: &[VarInfo],
    tm: &mut TermManager,
    g: &Gcl,
    env: Env,
    havoc: &mut HavocValue<'_>,
) -> Exec {
    let at = vec![(0, tm.tru())];
    exec_at(vars, tm, g, env, at, havoc)
}

fn exec_at(
    vars: &[VarInfo],
    tm: &mut TermManager,
    g: &Gcl,
    env: Env,
    at: Consumed,
    havoc: &mut HavocValue<'_>,
) -> Exec {
    let tru = tm.tru();
    match g {
        Gcl::Assume(c, _) => Exec {
            guard: subst(vars, tm, *c, &env),
            env,
            consumed: at,
        },
        Gcl::Assign(v, t, _) => {
            let x = subst(vars, tm, *t, &env);
            let mut env = env;
            env.insert(*v, x);
            Exec {
                guard: tru,
                env,
                consumed: at,
            }
        }
        Gcl::Havoc(v, _, _) => {
            // The value at the current position: an `ite` over the possible positions.
            let mut cases = at.iter().rev();
            let &(k, _) = cases.next().expect("a position");
            let mut x = havoc(tm, *v, k);
            for &(k, c) in cases {
                let y = havoc(tm, *v, k);
                x = tm.ite(c, y, x);
            }
            let mut env = env;
            env.insert(*v, x);
            Exec {
                guard: tru,
                env,
                consumed: at.into_iter().map(|(k, c)| (k + 1, c)).collect(),
            }
        }
        Gcl::Seq(gs) => {
            let mut acc = Exec {
                guard: tru,
                env,
                consumed: at,
            };
            for g in gs {
                let env = std::mem::take(&mut acc.env);
                let at = std::mem::take(&mut acc.consumed);
                let r = exec_at(vars, tm, g, env, at, havoc);
                acc.guard = tm.and(acc.guard, r.guard);
                acc.env = r.env;
                acc.consumed = r.consumed;
            }
            acc
        }
        Gcl::Choice(alts) => choice(vars, tm, alts, env, at, havoc),
    }
}

/// A `Choice`: the first alternative that completes is taken.
fn choice(
    vars: &[VarInfo],
    tm: &mut TermManager,
    alts: &[Gcl],
    base: Env,
    at: Consumed,
    havoc: &mut HavocValue<'_>,
) -> Exec {
    let results: Vec<Exec> = alts
        .iter()
        .map(|a| exec_at(vars, tm, a, base.clone(), at.clone(), havoc))
        .collect();
    let Some(last) = results.last() else {
        let fals = tm.fals();
        return Exec {
            guard: fals,
            env: base,
            consumed: at,
        };
    };
    let guard = tm.or_all(results.iter().map(|r| r.guard));
    // Written values: the first alternative that completes wins.
    let changed: HashSet<PVar> = results.iter().flat_map(|r| r.env.keys().copied()).collect();
    let mut changed: Vec<PVar> = changed.into_iter().collect();
    changed.sort();
    let mut env = base.clone();
    for v in changed {
        let mut x = value(vars, &last.env, v);
        for r in results.iter().rev().skip(1) {
            let y = value(vars, &r.env, v);
            x = tm.ite(r.guard, y, x);
        }
        env.insert(v, x);
    }
    // Consumed values: those of the alternative taken.
    let mut counts: BTreeMap<usize, TermId> = BTreeMap::new();
    let mut earlier = tm.fals();
    for r in &results {
        let not_earlier = tm.not(earlier);
        let taken = tm.and(r.guard, not_earlier);
        earlier = tm.or(earlier, r.guard);
        if tm.is_false(taken) {
            continue;
        }
        for &(k, c) in &r.consumed {
            let c = tm.and(taken, c);
            let acc = counts.entry(k).or_insert_with(|| tm.fals());
            *acc = tm.or(*acc, c);
        }
    }
    if counts.is_empty() {
        // No alternative can complete, so neither can the path; later havocs still read the
        // positions where the alternatives end, which `havoc_widths` sizes (the position
        // before the choice may be a narrower slot).
        let fals = tm.fals();
        for r in &results {
            for &(k, _) in &r.consumed {
                counts.insert(k, fals);
            }
        }
    }
    let consumed = match counts.len() {
        0 => at,
        1 => counts.into_keys().map(|k| (k, tm.tru())).collect(),
        _ => counts.into_iter().collect(),
    };
    Exec {
        guard,
        env,
        consumed,
    }
}

/// The width of the widest variable a `Havoc` of `g` may write at each position (0 where none
/// does), `g` starting at position 0, merged into `widths`.
pub fn havoc_widths(vars: &[VarInfo], g: &Gcl, widths: &mut Vec<u32>) {
    positions(vars, g, BTreeSet::from([0]), widths);
}

/// The possible positions after `g`, from the possible positions `from` before it.
fn positions(
    vars: &[VarInfo],
    g: &Gcl,
    from: BTreeSet<usize>,
    widths: &mut Vec<u32>,
) -> BTreeSet<usize> {
    match g {
        Gcl::Assume(..) | Gcl::Assign(..) => from,
        Gcl::Havoc(v, _, _) => {
            let w = vars[v.index()].ty.width;
            for &k in &from {
                if widths.len() <= k {
                    widths.resize(k + 1, 0);
                }
                widths[k] = widths[k].max(w);
            }
            from.into_iter().map(|k| k + 1).collect()
        }
        Gcl::Seq(gs) => gs.iter().fold(from, |at, g| positions(vars, g, at, widths)),
        Gcl::Choice(alts) if alts.is_empty() => from,
        Gcl::Choice(alts) => alts
            .iter()
            .flat_map(|a| positions(vars, a, from.clone(), widths))
            .collect(),
    }
}
