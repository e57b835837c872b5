//! k-induction with simple-path constraints and a forward (recurrence-diameter) check.
//!
//! For `k = 0, 1, 2, …`:
//! - **base**: is a goal state reachable in exactly `k` steps? (the incremental BMC query);
//!   SAT gives a shortest counterexample;
//! - **forward**: is there a loop-free path `s_0 … s_k` from an initial state whose first `k`
//!   states avoid the goal? UNSAT proves the goal unreachable: every reachable state has a
//!   loop-free path to it, whose prefixes the base queries `0..=k` have all excluded (this is
//!   what makes k-induction complete on systems where every execution ends, e.g. programs with
//!   bounded loops);
//! - **step**: is there a loop-free path `s_0 … s_k` (constraints `U` in every state, no
//!   initial-state condition) with `¬G(s_0) … ¬G(s_{k-1})` and `G(s_k)`? UNSAT proves the goal
//!   unreachable, because the bases `0..=k` excluded every shorter counterexample and a
//!   shortest counterexample is such a loop-free path.
//!
//! The forward query can be turned off ([`KindOptions::forward`], `kind:BACKEND:no-forward`
//! in a portfolio member); k-induction then proves only by its step query.
//!
//! States are compared on [`System::simple_path_vars`] (latches and the variables `I`
//! mentions). Simple-path constraints are added lazily: a model in which a state equals an
//! earlier one gets the constraint for that pair (the nearest earlier one), and the query is
//! repeated.

use super::optable::{Opt, OptionTable};
use super::problem::SystemEngine;
use super::unroll::{too_large, Unrolling};
use super::{Certificate, Interrupted, Options, Progress, ProgressFn, Stats, Unknown, Verdict};
use crate::sat::{Lit, SolveResult, Solver, Var};
use crate::ts::{Plan, System};
use std::time::Instant;

/// Options of k-induction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindOptions {
    /// Ask the forward (recurrence-diameter) query at each `k`.
    pub forward: bool,
}

impl Default for KindOptions {
    fn default() -> Self {
        KindOptions { forward: true }
    }
}

impl OptionTable for KindOptions {
    const ENGINE: &'static str = "k-induction";
    const OPTIONS: &'static [Opt<Self>] = &[Opt::switch(
        "forward",
        "the forward query: no loop-free path from an initial state k steps long proves the \
         goal unreachable",
        |o| &mut o.forward,
    )];
}

/// The base-case side: incremental BMC, one depth at a time.
struct Base<'s> {
    solver: Box<dyn Solver>,
    un: Unrolling<'s>,
}

impl<'s> Base<'s> {
    fn new(sys: &'s System, opts: &Options) -> Base<'s> {
        Base {
            solver: opts.backend.create(&opts.interrupter),
            un: Unrolling::new(sys),
        }
    }

    /// Is the goal reachable in exactly `k = len()` steps?
    fn step(&mut self, sys: &System) -> Result<Option<Plan>, Interrupted> {
        let s = self.solver.as_mut();
        let k = self.un.push_state(s);
        if k == 0 {
            self.un.add_section(s, &sys.init, 0);
        }
        let a = s.new_var().pos();
        self.un.add_section_guarded(s, &sys.bad, k, a);
        match s.solve(&[!a]) {
            SolveResult::Sat => Ok(Some(Plan {
                states: self.un.extract_states(s, k),
            })),
            SolveResult::Unsat => {
                s.add_clause(&[a]);
                Ok(None)
            }
            SolveResult::Interrupted => Err(Interrupted),
        }
    }
}

/// A loop-free path whose states avoid the goal except possibly the last: the step query
/// (without an initial condition, goal at the end) and the forward query (from an initial
/// state, any last state).
struct Path<'s> {
    solver: Box<dyn Solver>,
    un: Unrolling<'s>,
    goal: Vec<Lit>,
    vars: Vec<Var>,
    from_init: bool,
}

enum Answer {
    /// No such path: the goal is unreachable.
    Proof,
    /// Such a path exists.
    Path,
    Interrupted,
}

impl<'s> Path<'s> {
    fn new(sys: &'s System, opts: &Options, from_init: bool) -> Path<'s> {
        Path {
            solver: opts.backend.create(&opts.interrupter),
            un: Unrolling::new(sys),
            goal: Vec::new(),
            vars: sys.simple_path_vars(),
            from_init,
        }
    }

    /// Extend the path to `k + 1 = len() + 1` states and ask the query.
    fn extend(&mut self, sys: &System) -> Answer {
        self.grow(sys);
        self.ask()
    }

    /// Extend the path to `len() + 1` states without asking.
    fn grow(&mut self, sys: &System) {
        let s = self.solver.as_mut();
        let k = self.un.push_state(s);
        if k == 0 && self.from_init {
            self.un.add_section(s, &sys.init, 0);
        }
        if k > 0 {
            s.add_clause(&[!self.goal[k - 1]]);
        }
        let g = self.un.section_literal(s, &sys.bad, k);
        self.goal.push(g);
    }

    /// The query on the path as long as it is now.
    fn ask(&mut self) -> Answer {
        let s = self.solver.as_mut();
        let k = self.goal.len() - 1;
        let g = self.goal[k];
        let assumptions: &[Lit] = if self.from_init { &[] } else { &[g] };
        loop {
            match s.solve(assumptions) {
                SolveResult::Unsat => return Answer::Proof,
                SolveResult::Interrupted => return Answer::Interrupted,
                SolveResult::Sat => {
                    // Only the compared variables are read from the model.
                    let proj: Vec<Vec<bool>> = (0..=k)
                        .map(|i| {
                            self.vars
                                .iter()
                                .map(|&v| s.model_value(self.un.lit(i, v)))
                                .collect()
                        })
                        .collect();
                    // One constraint per state that repeats an earlier one, with the nearest
                    // such: a path that comes to rest repeats its last state at every later
                    // step, and all pairs of those would be quadratically many constraints
                    // where the adjacent ones already exclude the rest.
                    let mut added = false;
                    for j in 1..=k {
                        if let Some(i) = (0..j).rev().find(|&i| proj[i] == proj[j]) {
                            add_distinct(s, &self.un, &self.vars, i, j);
                            added = true;
                        }
                    }
                    if !added {
                        return Answer::Path;
                    }
                }
            }
        }
    }
}

/// States `i` and `j` differ on at least one of `vars`.
fn add_distinct(s: &mut dyn Solver, un: &Unrolling<'_>, vars: &[Var], i: usize, j: usize) {
    let mut any = Vec::with_capacity(vars.len());
    for &v in vars {
        let (x, y) = (un.lit(i, v), un.lit(j, v));
        let d = s.new_var().pos();
        s.add_clause(&[!d, x, y]);
        s.add_clause(&[!d, !x, !y]);
        any.push(d);
    }
    s.add_clause(&any);
}

/// Run k-induction.
pub fn run(sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
    KindOptions::default().run_on(sys, opts, progress)
}

impl SystemEngine for KindOptions {
    /// [`run`] with k-induction's own options.
    fn run_on(&self, sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
        let kind = self;
        let start = Instant::now();
        let mut depth = 0;
        let v = search(sys, opts, kind, progress, &mut depth);
        let mut stats = Stats::new();
        stats.counter("depth", depth).time("time", start.elapsed());
        (v, stats)
    }
}

fn search(
    sys: &System,
    opts: &Options,
    kind: &KindOptions,
    progress: ProgressFn<'_>,
    depth: &mut usize,
) -> Verdict {
    let mut base = Base::new(sys, opts);
    let mut forward = Path::new(sys, opts, true);
    let mut step = Path::new(sys, opts, false);
    let v = search_with(
        sys,
        opts,
        progress,
        depth,
        &mut base,
        kind.forward.then_some(&mut forward),
        &mut step,
    );
    for (solver, un) in [
        (base.solver, &mut base.un),
        (forward.solver, &mut forward.un),
        (step.solver, &mut step.un),
    ] {
        un.defer_drop();
        super::graveyard::keep(solver);
    }
    v
}

fn search_with(
    sys: &System,
    opts: &Options,
    progress: ProgressFn<'_>,
    depth: &mut usize,
    base: &mut Base<'_>,
    mut forward: Option<&mut Path<'_>>,
    step: &mut Path<'_>,
) -> Verdict {
    let start = Instant::now();
    let interrupted = || super::stopped(opts);
    let mut k = 0usize;
    loop {
        if opts.max_depth.is_some_and(|m| k > m) {
            return Verdict::Unknown(Unknown::bound(format!(
                "not k-inductive for k up to {}",
                k - 1
            )));
        }
        if opts.interrupter.is_interrupted() {
            return interrupted();
        }
        // The base, forward and step queries each unroll `k + 1` states.
        if too_large(sys, 3 * (k + 1), 3) {
            return Verdict::Unknown(Unknown::memory(format!(
                "the unrollings would exceed the memory budget (k = {k})"
            )));
        }
        *depth = k;
        match base.step(sys) {
            Ok(Some(plan)) => return Verdict::Unsafe(plan),
            Ok(None) => {}
            Err(Interrupted) => return interrupted(),
        }
        if opts.interrupter.is_interrupted() {
            return interrupted();
        }
        match forward.as_mut().map(|f| f.extend(sys)) {
            Some(Answer::Proof) => return Verdict::Safe(Certificate::Diameter { k }),
            Some(Answer::Path) | None => {}
            Some(Answer::Interrupted) => return interrupted(),
        }
        if opts.interrupter.is_interrupted() {
            return interrupted();
        }
        match step.extend(sys) {
            Answer::Proof => return Verdict::Safe(Certificate::KInduction { k }),
            Answer::Path => {}
            Answer::Interrupted => return interrupted(),
        }
        progress(&Progress::new("kind", k, start, String::new()));
        k += 1;
    }
}
