//! Loop acceleration: a self-loop that moves each variable it writes by the same constant in
//! every iteration may, after an iteration, jump over `N` more at once.
//!
//! For a self-loop edge `e` at `L`, the increments `d_v = v₂ − v₁` between two consecutive
//! iterations (the second taking the same nondet values as the first) are estimated on a few
//! sampled states; a loop whose increments are not the same on all samples, or are all zero, is
//! left alone. The edge becomes
//!
//! ```text
//! e; N := havoc (iterations); either assume N = 0 or assume C(N); v := v + N·d_v (each v) end
//! ```
//!
//! where `C(N)` says `N ≥ 1`, no moved variable leaves its type's range within the `N`
//! iterations, and `e` can be taken (with the nondet values of the iteration just executed) at
//! the first and at the last of them. The edge's prefix is `e` itself, so it consumes the same
//! nondet values first and stays exclusive with the other edges leaving `L`.
//!
//! Nothing of this is trusted. Whether the jump is sound, i.e. `C(N)` implies that `N` more
//! iterations of `e` lead from the state after `e` to the jumped state, is proved by induction
//! over `N` with two validity queries that the caller answers (with a SAT solver):
//! - base: `C(1)` implies that `e` leads from the state to the state moved by `d`;
//! - step: `N ≥ 1 ∧ C(N+1)` implies `C(N)` and that `e` leads from the state moved by `N·d` to
//!   the one moved by `(N+1)·d`;
//!
//! both for every state that `e` produces (the premise is a first execution of `e` from an
//! arbitrary state, with arbitrary nondet values); in the `N` later iterations each havoc takes
//! the value its variable has after the first, one choice of nondet values among all, so the
//! jumped state is one the program really reaches. A loop whose queries are not both proved
//! valid is left alone. With both proved, every step of the accelerated CFA is a sequence of
//! steps of the original one, so the accelerated CFA reaches exactly the states the original
//! reaches, and its counterexamples (replayed on the interpreter, which executes the jump as
//! written) are counterexamples of the program. [`Accelerated::expand`] turns one into the
//! program's own run and nondet values, the iterations taken one by one with those values.

use super::closed::Closed;
use super::fold::fold_fixed_loops;
use super::interp::{self, Nondet, RunOptions};
use super::symex::{self, Env};
use super::{Cfa, Gcl, HavocKind, IntType, Loc, OriginId, PVar, Step, VarInfo, VarKind};
use crate::bv::{Evaluator, Sort, TermId, TermManager};
use std::collections::BTreeMap;

/// The width of the iteration count `N`.
pub(super) const COUNT_WIDTH: u32 = 32;

/// The widest variable a loop may move (the range checks work in twice that plus the count).
const MAX_WIDTH: u32 = 64;

/// The sampled states the increments are estimated on.
const SAMPLES: u64 = 4;

/// Answers whether a `bool` term of the manager is valid (true under every assignment);
/// `false` also when it cannot tell.
pub type Prover<'a> = dyn FnMut(&TermManager, TermId) -> bool + 'a;

/// The result of [`accelerate`].
pub struct Accelerated {
    pub cfa: Cfa,
    /// The locations whose self-loop can jump, proved sound (numbered as in `cfa`).
    pub loops: Vec<Loc>,
    /// The locations whose self-loop can jump by closed forms ([`Closed`]), unproved: a run
    /// through such a jump stands for a run of the program only once expanded and replayed.
    pub unproved: Vec<Loc>,
    /// The loops whose whole run, from the edge entering them to the edge leaving them back
    /// to the loop around them, is also one step (see [`super::nest`]).
    pub summaries: Vec<Loc>,
    /// The loops folded into the edge entering them (numbered as in the original CFA;
    /// they are not in `cfa`).
    pub folded: Vec<Loc>,
    /// The CFA after folding, before acceleration: the same locations and edges as `cfa`
    /// but its whole runs of nested loops (the last edges of `cfa`), each jump edge back to
    /// its loop's single iteration and each entry split for a whole run back to the plain
    /// entry (which consumes a prefix of the split one's values); what
    /// [`Accelerated::expand`] runs.
    pub iterations: Cfa,
}

impl Accelerated {
    /// What was done, e.g. `loops of a fixed trip count at L4 folded; loops at L3 accelerated`.
    pub fn summary(&self) -> String {
        let list = |ls: &[Loc]| {
            ls.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        if !self.folded.is_empty() {
            parts.push(format!(
                "loops of a fixed trip count at {} folded",
                list(&self.folded)
            ));
        }
        if !self.loops.is_empty() {
            parts.push(format!("loops at {} accelerated", list(&self.loops)));
        }
        if !self.summaries.is_empty() {
            parts.push(format!(
                "whole runs of the loops at {} taken as one step of the loop around them",
                list(&self.summaries)
            ));
        }
        if !self.unproved.is_empty() {
            parts.push(format!(
                "loops at {} accelerated by closed forms (unproved: their counterexamples are replayed)",
                list(&self.unproved)
            ));
        }
        parts.join("; ")
    }
}

/// Folds the loops of a fixed trip count ([`fold_fixed_loops`]), then accelerates every
/// self-loop whose jump `valid` proves sound; `None` when nothing was folded or accelerated.
pub fn accelerate(cfa: &Cfa, valid: &mut Prover<'_>) -> Option<Accelerated> {
    let (cfa, folded) = fold_fixed_loops(cfa).unwrap_or_else(|| (cfa.clone(), Vec::new()));
    let cfa = &cfa;
    let mut out = cfa.clone();
    let mut loops = Vec::new();
    let mut unproved = Vec::new();
    for i in 0..cfa.edges.len() {
        let e = &cfa.edges[i];
        if e.from != e.to {
            continue;
        }
        match proved_jump(&mut out, i, valid) {
            Some(true) => loops.push(e.from),
            Some(false) => {}
            None => {
                if polynomial_jump(&mut out, i) {
                    unproved.push(e.from);
                }
            }
        }
    }
    let summaries = super::nest::summarize(&mut out, &mut loops, valid);
    (!loops.is_empty() || !unproved.is_empty() || !folded.is_empty()).then_some(Accelerated {
        cfa: out,
        loops,
        unproved,
        summaries,
        folded,
        iterations: cfa.clone(),
    })
}

/// Makes the self-loop `out.edges[i]` jump over iterations of constant increments, when
/// `valid` proves the jump sound: whether it did; `None` when the increments are not constant
/// (or none moves).
pub(super) fn proved_jump(out: &mut Cfa, i: usize, valid: &mut Prover<'_>) -> Option<bool> {
    let e = out.edges[i].clone();
    let moves = increments(out, &e.cmd)?;
    let mut scratch = out.tm.clone();
    let count = scratch.var(format!("{}#iterations", e.from), Sort::Bv(COUNT_WIDTH));
    let jump = Jump {
        cmd: &e.cmd,
        moves,
        count,
    };
    let queries = jump.obligations(&out.vars, &mut scratch);
    if !queries.into_iter().all(|q| valid(&scratch, q)) {
        return Some(false);
    }
    let text = "(accelerated) more iterations of the loop at once";
    Some(install(out, i, text, |out, n, origin| {
        let jump = Jump {
            count: out.var(n).term,
            ..jump
        };
        Some(jump.edge(&out.vars, &mut out.tm, n, origin))
    }))
}

/// Adds the count variable `n` of a jump at the self-loop `out.edges[i]` and its origin
/// (`text`), and puts the jump that `build` makes of them in place of the loop's command;
/// whether it did. Not when `build` makes none, nor when the result reads a variable before
/// writing it: the jump's condition reads the loop's variables as the first iteration leaves
/// them, and a variable that iteration writes on some paths only (a havoc in one alternative)
/// would be read unwritten on the others, which the CFA's invariant forbids.
fn install(
    out: &mut Cfa,
    i: usize,
    text: &str,
    build: impl FnOnce(&mut Cfa, PVar, OriginId) -> Option<Gcl>,
) -> bool {
    let from = out.edges[i].from;
    let pos = out.locations[from.index()].pos.clone();
    let origin = out.add_origin(pos.clone(), text.to_string());
    let ty = IntType {
        width: COUNT_WIDTH,
        signed: false,
    };
    let n = out.add_var(format!("{from}#iterations"), ty, VarKind::Nondet, pos);
    let Some(cmd) = build(out, n, origin) else {
        return false;
    };
    let plain = std::mem::replace(&mut out.edges[i].cmd, cmd);
    if !super::uninitialized_reads(out).is_empty() {
        out.edges[i].cmd = plain;
        return false;
    }
    true
}

/// Makes the self-loop `out.edges[i]` jump by the closed forms of its variables
/// ([`Closed`]), unproved; whether it did. A loop whose values depend on a branch has no
/// closed form as a whole. When its command is a choice and each alternative assumes a
/// condition over variables the loop does not move (a flag: every iteration of a run takes
/// the same alternative), each alternative that has closed forms gets a jump of its own, over
/// iterations that all take it. Branches on moving variables get none: runs of the same
/// alternative are short there, and the jump's condition, which the loop's guard is part of,
/// would make every BMC step dearer.
fn polynomial_jump(out: &mut Cfa, i: usize) -> bool {
    let loop_cmd = out.edges[i].cmd.clone();
    let whole = Closed::find(&out.vars, &mut out.tm, &loop_cmd);
    let alternatives: Vec<(&Gcl, Closed)> = match (whole, &loop_cmd) {
        (Some(closed), _) => vec![(&loop_cmd, closed)],
        (None, Gcl::Choice(alts)) if steady_choice(&out.vars, &mut out.tm, &loop_cmd, alts) => alts
            .iter()
            .filter_map(|alt| Some((alt, Closed::find(&out.vars, &mut out.tm, alt)?)))
            .collect(),
        (None, _) => Vec::new(),
    };
    let Some(degree) = alternatives.iter().map(|(_, c)| c.degree()).max() else {
        return false;
    };
    let text = format!(
        "(accelerated) more iterations of the loop at once, by closed forms of degree {degree}"
    );
    install(out, i, &text, |out, n, origin| {
        let count = out.vars[n.index()].term;
        let zero = out.tm.bv_const(0, COUNT_WIDTH);
        let stay = out.tm.eq(count, zero);
        let jumps: Vec<Vec<Gcl>> = alternatives
            .iter()
            .filter_map(|(cmd, closed)| closed_jump(out, cmd, closed, count, origin))
            .collect();
        (!jumps.is_empty()).then(|| jump_command(&loop_cmd, n, stay, jumps, origin))
    })
}

/// Every alternative of the loop `cmd` assumes a condition over variables that an iteration
/// leaves unchanged (not written, or written by a havoc only, which later iterations repeat).
fn steady_choice(vars: &[VarInfo], tm: &mut TermManager, cmd: &Gcl, alts: &[Gcl]) -> bool {
    let first = iterate(vars, tm, cmd, Env::new()).env;
    let moving: Vec<_> = first
        .iter()
        .filter(|&(v, &x)| x != vars[v.index()].term)
        .filter_map(|(v, _)| tm.as_var(vars[v.index()].term))
        .collect();
    let steady = |c: TermId| {
        let free = tm.free_vars(c);
        !free.is_empty() && free.iter().all(|x| !moving.contains(x))
    };
    fn assumptions(cmd: &Gcl, out: &mut Vec<TermId>) {
        match cmd {
            Gcl::Assume(c, _) => out.push(*c),
            Gcl::Seq(cmds) => cmds.iter().for_each(|c| assumptions(c, out)),
            _ => {}
        }
    }
    alts.iter().all(|alt| {
        let mut conds = Vec::new();
        assumptions(alt, &mut conds);
        conds.into_iter().any(steady)
    })
}

/// The body of a jump over `N` (`count`, not zero) iterations of `cmd` by its closed forms:
/// the condition (`cmd` taken at the first and the last of them, `N` below `2^(32/d)`, signed
/// variables in range) and the assignments; `None` when the assignments read each other in a
/// cycle.
fn closed_jump(
    out: &mut Cfa,
    cmd: &Gcl,
    closed: &Closed,
    count: TermId,
    origin: OriginId,
) -> Option<Vec<Gcl>> {
    let (vars, tm) = (&out.vars, &mut out.tm);
    let one = tm.bv_const(1, COUNT_WIDTH);
    let zero = tm.bv_const(0, COUNT_WIDTH);
    let nonzero = tm.ne(count, zero);
    // The state before the last of the `N` iterations, and that iteration from it.
    let before = tm.sub(count, one);
    let last = closed.at(vars, tm, before);
    let first = iterate(vars, tm, cmd, Env::new()).guard;
    let end = iterate(vars, tm, cmd, last);
    let mut cond = vec![nonzero, first, end.guard];
    // A jump of degree `d` goes over fewer than 2^(32/d) iterations (a longer run takes
    // several jumps): the values are then at most about 2^32 times the coefficients, so
    // the range check's products stay narrow (a sum of squares: 67 bits instead of 125).
    let bits = COUNT_WIDTH.div_ceil(closed.degree().max(1) as u32);
    if bits < COUNT_WIDTH {
        let limit = tm.bv_const(1 << bits, COUNT_WIDTH);
        cond.push(tm.ult(count, limit));
    }
    cond.push(closed.in_range(vars, tm, count, bits));
    let cond = tm.and_all(cond);
    let moved: Vec<(PVar, TermId)> = closed
        .coefficients
        .keys()
        .map(|&v| (v, symex::value(vars, &end.env, v)))
        .collect();
    let moved = parallel_order(vars, tm, moved)?;
    let mut jump = vec![Gcl::Assume(cond, origin)];
    jump.extend(moved.into_iter().map(|(v, x)| Gcl::Assign(v, x, origin)));
    Some(jump)
}

/// The assignments `v := x` in an order in which, executed one after the other, each reads
/// the values before all of them: every assignment that reads a variable comes before the
/// assignment to it; `None` when they read each other in a cycle.
fn parallel_order(
    vars: &[VarInfo],
    tm: &TermManager,
    mut moved: Vec<(PVar, TermId)>,
) -> Option<Vec<(PVar, TermId)>> {
    let var_of: BTreeMap<_, PVar> = moved
        .iter()
        .filter_map(|&(v, _)| tm.as_var(vars[v.index()].term).map(|x| (x, v)))
        .collect();
    let reads: Vec<Vec<PVar>> = moved
        .iter()
        .map(|&(v, x)| {
            let read = tm.free_vars(x).into_iter().filter_map(|y| var_of.get(&y));
            read.copied().filter(|&u| u != v).collect()
        })
        .collect();
    let mut reads: Vec<((PVar, TermId), Vec<PVar>)> = moved.drain(..).zip(reads).collect();
    let mut order = Vec::new();
    while !reads.is_empty() {
        // An assignment to a variable that no remaining assignment reads.
        let i = (0..reads.len()).find(|&i| {
            let v = reads[i].0 .0;
            reads.iter().all(|(_, r)| !r.contains(&v))
        })?;
        order.push(reads.remove(i).0);
    }
    Some(order)
}

/// `cmd; N := havoc; either assume N = 0 (stay) or J₁ or J₂ …`, each `Jᵢ` a jump's body
/// (`assume cond; v := x` for each moved variable).
fn jump_command(cmd: &Gcl, n: PVar, stay: TermId, jumps: Vec<Vec<Gcl>>, origin: OriginId) -> Gcl {
    let mut alts = vec![Gcl::Assume(stay, origin)];
    alts.extend(jumps.into_iter().map(Gcl::Seq));
    Gcl::Seq(vec![
        cmd.clone(),
        Gcl::Havoc(n, HavocKind::Iterations, origin),
        Gcl::Choice(alts),
    ])
}

/// One iteration of the loop `cmd` from `env`, each havoc taking the value its variable has
/// after the first iteration (its own term).
pub(super) fn iterate(vars: &[VarInfo], tm: &mut TermManager, cmd: &Gcl, env: Env) -> symex::Exec {
    let mut same = |_: &mut TermManager, v: PVar, _| vars[v.index()].term;
    symex::exec(vars, tm, cmd, env, &mut same)
}

impl Accelerated {
    /// Whether a step of `steps` runs a nested loop whole ([`super::nest`]), which
    /// [`Accelerated::expand`] does not expand.
    pub fn runs_nested_whole(&self, steps: &[Step]) -> bool {
        steps
            .iter()
            .any(|s| s.edge.index() >= self.iterations.edges.len())
    }

    /// The run of the program that a run of the accelerated CFA stands for: `steps`, taken
    /// with the nondet values `nondet`, each jump over `N` iterations expanded into `N + 1`
    /// iterations of its loop — the first with the jump step's values, the `N` others with
    /// each havoc taking the value its variable has after the first, which is how the jump's
    /// soundness proof reads them (an iteration may consume another number of values than the
    /// first) — run on
    /// [`Accelerated::iterations`]. Returns the nondet values that run consumed, in order,
    /// which are the original CFA's (folding is exact), and the number of iterations jumped
    /// over; `None` when that number exceeds `limit`, when a step runs a nested loop whole, or
    /// for values given as [`Nondet::Split`] (whose uninitialised declarations consume
    /// nothing).
    pub fn expand(
        &self,
        nondet: Nondet<'_>,
        steps: &[Step],
        limit: u128,
    ) -> Option<(Vec<u128>, u128)> {
        // A step that runs a nested loop whole is not expanded (see `super::nest`).
        if steps
            .iter()
            .any(|s| s.edge.index() >= self.iterations.edges.len())
        {
            return None;
        }
        let original_vars = self.iterations.vars.len();
        let jump = |s: &Step| {
            s.nondet
                .iter()
                .find(|(v, _)| v.index() >= original_vars)
                .map_or(0, |&(_, n)| n)
        };
        let iterations = steps.iter().fold(0u128, |n, s| n.saturating_add(jump(s)));
        if iterations > limit {
            return None;
        }
        // The values each step of the accelerated run could read: its own list, or the rest
        // of the sequence up to the most values its edge consumes.
        let mut base = 0usize;
        let mut lists: Vec<Option<Vec<u128>>> = Vec::with_capacity(steps.len());
        for (i, s) in steps.iter().enumerate() {
            let values = match nondet {
                Nondet::Sequence(seq) => {
                    let mut widths = Vec::new();
                    symex::havoc_widths(&self.cfa.vars, &self.cfa.edge(s.edge).cmd, &mut widths);
                    let from = base.min(seq.len());
                    let list = seq[from..(from + widths.len()).min(seq.len())].to_vec();
                    base += s.nondet.len();
                    list
                }
                Nondet::PerStep(per) => per.get(i).cloned().unwrap_or_default(),
                Nondet::Keeping(per) => per.get(i).cloned().flatten().unwrap_or_default(),
                Nondet::Split { .. } => return None,
            };
            lists.push(Some(values));
            lists.extend((0..jump(s)).map(|_| None));
        }
        let opts = RunOptions {
            step_limit: lists.len(),
            uninit_zero: false,
            record: true,
        };
        let (_, run) = interp::run_nondet(&self.iterations, Nondet::Keeping(&lists), opts);
        let values = run
            .iter()
            .flat_map(|s| s.nondet.iter().map(|&(_, x)| x))
            .collect();
        Some((values, iterations))
    }
}

/// A self-loop's jump: its command, the increment of each moved variable (as a signed value
/// of the variable's width), and the count variable's term.
struct Jump<'c> {
    cmd: &'c Gcl,
    moves: BTreeMap<PVar, i128>,
    count: TermId,
}

/// Where the moved variables are after some number `k` of iterations: each as `x + k·d` in
/// its own width (`at`) and, to tell whether it left its type's range, in a width where that
/// sum cannot wrap (`wide`).
#[derive(Clone)]
struct Line {
    at: Env,
    wide: Vec<TermId>,
}

impl Jump<'_> {
    /// The width in which `x + k·d` cannot wrap for a variable of `width` bits.
    fn wide_width(width: u32) -> u32 {
        width + COUNT_WIDTH + 2
    }

    /// The line after `k` iterations (`k` a count-width term), in closed form.
    fn closed(&self, vars: &[VarInfo], tm: &mut TermManager, k: TermId) -> Line {
        let mut line = Line {
            at: Env::new(),
            wide: Vec::new(),
        };
        for (&v, &d) in &self.moves {
            let IntType { width, signed } = vars[v.index()].ty;
            let x = vars[v.index()].term;
            line.at.insert(v, shift(tm, x, k, d, width));
            let ww = Self::wide_width(width);
            let xw = tm.resize(x, ww, signed);
            line.wide.push(shift(tm, xw, k, d, ww));
        }
        line
    }

    /// The line `j` iterations further (`j` small), as `line + j·d`.
    fn advance(&self, vars: &[VarInfo], tm: &mut TermManager, line: &Line, j: u128) -> Line {
        let mut out = line.clone();
        for (i, (&v, &d)) in self.moves.iter().enumerate() {
            let width = vars[v.index()].ty.width;
            let k = tm.bv_const(j, COUNT_WIDTH);
            out.at.insert(v, shift(tm, line.at[&v], k, d, width));
            out.wide[i] = shift(tm, line.wide[i], k, d, Self::wide_width(width));
        }
        out
    }

    /// No moved variable is outside its type's range on `line`.
    fn in_range(&self, vars: &[VarInfo], tm: &mut TermManager, line: &Line) -> TermId {
        let mut ok = tm.tru();
        for (i, &v) in self.moves.keys().enumerate() {
            let ty = vars[v.index()].ty;
            ok = and_in_range(tm, ok, line.wide[i], ty);
        }
        ok
    }

    /// One iteration of the loop from `env`, each havoc taking the value its variable has after
    /// the first iteration (its own term, which the queries replace by that value).
    fn iterate(&self, vars: &[VarInfo], tm: &mut TermManager, env: Env) -> symex::Exec {
        iterate(vars, tm, self.cmd, env)
    }

    /// `C(k)` given `k ≠ 0` (`nonzero`), the line before the last of the `k` iterations and
    /// the line after them: in range after them (so also in between: each variable moves one
    /// way), and the loop can be taken at the first and at the last of them.
    fn condition(
        &self,
        vars: &[VarInfo],
        tm: &mut TermManager,
        nonzero: TermId,
        last: &Line,
        end: &Line,
    ) -> TermId {
        let range = self.in_range(vars, tm, end);
        let first = self.iterate(vars, tm, Env::new()).guard;
        let last = self.iterate(vars, tm, last.at.clone()).guard;
        let c = tm.and(nonzero, range);
        let c = tm.and(c, first);
        tm.and(c, last)
    }

    /// The loop leads from `from` to `to`.
    fn leads(&self, vars: &[VarInfo], tm: &mut TermManager, from: &Line, to: &Line) -> TermId {
        let it = self.iterate(vars, tm, from.at.clone());
        let mut ok = it.guard;
        let mut written: Vec<PVar> = it.env.keys().chain(to.at.keys()).copied().collect();
        written.sort();
        written.dedup();
        for v in written {
            let a = symex::value(vars, &it.env, v);
            let b = symex::value(vars, &to.at, v);
            let eq = tm.eq(a, b);
            ok = tm.and(ok, eq);
        }
        ok
    }

    /// The base and step queries, each valid iff that part of the induction holds.
    ///
    /// The step query writes the lines after `N - 1`, `N` and `N + 1` iterations as
    /// `b`, `b + d` and `b + 2d` with `b` the closed form for `N - 1`: for `N ≥ 1` these equal
    /// the closed forms for `N` and `N + 1` in modular arithmetic (`N - 1` does not wrap), and
    /// a solver relates `b + d` to `b` far more easily than `x + N·d` to `x + (N-1)·d`.
    fn obligations(&self, vars: &[VarInfo], tm: &mut TermManager) -> Vec<TermId> {
        let n = self.count;
        let zero = tm.bv_const(0, COUNT_WIDTH);
        let one = tm.bv_const(1, COUNT_WIDTH);
        let max = tm.bv_const(u128::MAX, COUNT_WIDTH);
        let tru = tm.tru();
        // base: C(1) → the loop leads from the state to the state moved once.
        let start = self.closed(vars, tm, zero);
        let once = self.closed(vars, tm, one);
        let c1 = self.condition(vars, tm, tru, &start, &once);
        let leads = self.leads(vars, tm, &start, &once);
        let base = tm.implies(c1, leads);
        // step: N ≥ 1 ∧ N + 1 ≠ 0 ∧ C(N+1) → C(N) ∧ the loop leads from moved(N) to moved(N+1).
        let n0 = tm.sub(n, one);
        let b = self.closed(vars, tm, n0);
        let b1 = self.advance(vars, tm, &b, 1);
        let b2 = self.advance(vars, tm, &b, 2);
        let nz = tm.ne(n, zero);
        let nm = tm.ne(n, max);
        let pre = {
            let cn1 = self.condition(vars, tm, tru, &b1, &b2);
            let p = tm.and(nz, nm);
            tm.and(p, cn1)
        };
        let post = {
            let cn = self.condition(vars, tm, tru, &b, &b1);
            let more = self.leads(vars, tm, &b1, &b2);
            tm.and(cn, more)
        };
        let step = tm.implies(pre, post);
        // Both for every state the loop produces: the premise is a first iteration from an
        // arbitrary state with arbitrary nondet values.
        let mut fresh = |tm: &mut TermManager, v: PVar, _| {
            let info = &vars[v.index()];
            tm.var(format!("first:{}", info.name), Sort::Bv(info.ty.width))
        };
        let first = symex::exec(vars, tm, self.cmd, Env::new(), &mut fresh);
        [base, step]
            .into_iter()
            .map(|q| {
                let q = symex::subst(vars, tm, q, &first.env);
                tm.implies(first.guard, q)
            })
            .collect()
    }

    /// The accelerated edge: the loop, then `N` more iterations (`count`, program variable
    /// `n`) when `N ≠ 0`.
    fn edge(&self, vars: &[VarInfo], tm: &mut TermManager, n: PVar, origin: OriginId) -> Gcl {
        let zero = tm.bv_const(0, COUNT_WIDTH);
        let one = tm.bv_const(1, COUNT_WIDTH);
        let stay = tm.eq(self.count, zero);
        let nonzero = tm.not(stay);
        let before = tm.sub(self.count, one);
        let last = self.closed(vars, tm, before);
        let end = self.closed(vars, tm, self.count);
        let cond = self.condition(vars, tm, nonzero, &last, &end);
        // Each moved variable's value reads only itself.
        let mut moved: Vec<(PVar, TermId)> = end.at.into_iter().collect();
        moved.sort();
        let mut jump = vec![Gcl::Assume(cond, origin)];
        jump.extend(moved.into_iter().map(|(v, x)| Gcl::Assign(v, x, origin)));
        jump_command(self.cmd, n, stay, vec![jump], origin)
    }
}

/// `ok` and: the value of `x`, a term wider than `ty` read as a signed integer, lies in
/// `ty`'s range.
pub(super) fn and_in_range(tm: &mut TermManager, ok: TermId, x: TermId, ty: IntType) -> TermId {
    let IntType { width, signed } = ty;
    let (lo, hi) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    let wide = tm.width(x);
    let lo = tm.bv_const_signed(lo, wide);
    let hi = tm.bv_const_signed(hi, wide);
    let above = tm.sle(lo, x);
    let below = tm.sle(x, hi);
    let ok = tm.and(ok, above);
    tm.and(ok, below)
}

/// `x + k·d` in `w` bits (`k` zero-extended or truncated), written as `x − k·|d|` for a
/// negative `d`: a product with a small constant is a few adders, one with the two's
/// complement of a small constant is a full multiplier, much harder for the soundness queries.
fn shift(tm: &mut TermManager, x: TermId, k: TermId, d: i128, w: u32) -> TermId {
    let kw = tm.resize(k, w, false);
    let m = tm.bv_const(d.unsigned_abs(), w);
    let step = tm.mul(kw, m);
    if d < 0 {
        tm.sub(x, step)
    } else {
        tm.add(x, step)
    }
}

/// The increment of each variable the loop writes, as a signed value of its width, when it is
/// the same on every sampled state and not zero for all; `None` otherwise.
pub(super) fn increments(cfa: &Cfa, cmd: &Gcl) -> Option<BTreeMap<PVar, i128>> {
    let mut tm = cfa.tm.clone();
    let mut fresh = |tm: &mut TermManager, v: PVar, _| {
        let info = &cfa.vars[v.index()];
        tm.var(format!("first:{}", info.name), Sort::Bv(info.ty.width))
    };
    let first = symex::exec(&cfa.vars, &mut tm, cmd, Env::new(), &mut fresh);
    let mut again = |_: &mut TermManager, v: PVar, _| symex::value(&cfa.vars, &first.env, v);
    let second = symex::exec(&cfa.vars, &mut tm, cmd, first.env.clone(), &mut again);
    let mut written: Vec<PVar> = first.env.keys().copied().collect();
    written.sort();
    if written
        .iter()
        .any(|v| cfa.vars[v.index()].ty.width > MAX_WIDTH)
    {
        return None;
    }
    let roots: Vec<TermId> = written
        .iter()
        .flat_map(|v| [first.env[v], second.env[v]])
        .collect();
    let mut free: Vec<_> = roots.iter().flat_map(|&t| tm.free_vars(t)).collect();
    free.sort();
    free.dedup();
    let mut moves: BTreeMap<PVar, i128> = BTreeMap::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for sample in 0..SAMPLES {
        let mut ev = Evaluator::new(&tm);
        for &x in &free {
            seed = splitmix(seed);
            // The first sample is all zeros; the others are random.
            ev.set(x, if sample == 0 { 0 } else { seed as u128 });
        }
        for &v in &written {
            let ty = cfa.vars[v.index()].ty;
            let d = ev.eval(second.env[&v]).wrapping_sub(ev.eval(first.env[&v]));
            let d = crate::bv::value::to_signed(crate::bv::value::truncate(d, ty.width), ty.width);
            match moves.get(&v) {
                Some(&e) if e != d => return None,
                _ => {
                    moves.insert(v, d);
                }
            }
        }
    }
    moves.retain(|_, d| *d != 0);
    (!moves.is_empty()).then_some(moves)
}

/// One step of the SplitMix64 generator.
pub(super) fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
