//! Incremental bounded model checking (the scheme of LLUMC, Kleine Büning, Balyo, Sinz,
//! "Unbounded Software Model Checking with Incremental SAT-Solving", §2.0.1), with goal windows
//! for deep searches.
//!
//! Step 0 adds `I(0)`, `U(0)` and `a_0 ∨ G(0)`; step `k` adds `T(k-1, k)`, `U(k)` and
//! `a_k ∨ G(k)` (every goal clause weakened by the activation literal `a_k`), and solves under
//! `¬a_k`. After an UNSAT answer the unit `a_k` retires that step's goal clauses.
//!
//! Deep searches ask about several steps at once: once the depth passes
//! [`WINDOW_FROM`], one query covers a window of `k / 8` new steps with the clause
//! `¬w ∨ ¬a_i ∨ … ∨ ¬a_k` under the assumption `w` ("the goal holds at one of these steps"), so
//! a search to depth 3000 needs about a hundred solver calls instead of three thousand. A SAT
//! window is narrowed by bisection to its first step with a path to the goal, so the answer is
//! still a shortest counterexample.
//!
//! BMC proves the goal unreachable only where every execution ends: after a window without a
//! goal state up to step `k` (at depths that double), it asks whether some path still moves at its last step (state
//! `k` differs from state `k - 1` on [`System::simple_path_vars`]). When none does, every path
//! has come to rest (for a program, every execution has ended), every reachable state is
//! reachable within `k` steps, and the answer is a [`Certificate::Diameter`] at `k`, which the
//! caller re-checks like k-induction's. Otherwise BMC answers UNKNOWN at `max_depth` or when
//! interrupted.
//!
//! The depths and times above are [`BmcOptions`], the defaults given here
//! (`bmc:BACKEND:window-from=N:max-window=N:slow-query=MS` in a portfolio member).
//!
//! A window must not ask for states after the goal step it picks: in a system where some
//! states have no successor (not shown by [`every_state_has_successor`]), a goal at such
//! a state inside a window would go unseen. There the steps `k` of a window after its first have
//! `U(k)` and `T(k-1, k)` in force only under a literal `c_k` ("the path reaches step `k`"),
//! with `c_k → c_{k-1}`, and asking for the goal at `k` implies `c_k`; the first step of the
//! next window makes them units.
//!
//! When a query takes longer than [`SLOW_QUERY`] (proving that no step reaches the goal is
//! what is hard, e.g. with wide multiplications), the next windows are as long as the depth
//! already checked, below [`WINDOW_FROM`] too, and a SAT window yields the goal step its
//! model chose without bisection: a counterexample that may not be a shortest one, found
//! without proving the steps before it safe.

use super::optable::{Opt, OptionTable};
use super::problem::SystemEngine;
use super::unroll::{every_state_has_successor, too_large, Unrolling};
use super::{Certificate, Options, Progress, ProgressFn, Stats, Unknown, Verdict};
use crate::sat::{Lit, SolveResult, Solver};
use crate::ts::{Plan, System};
use std::time::{Duration, Instant};

/// The depth from which goal windows are used.
pub const WINDOW_FROM: usize = 32;

/// The largest window.
pub const MAX_WINDOW: usize = 128;

/// A query this slow makes BMC ask about windows before [`WINDOW_FROM`] too.
pub const SLOW_QUERY: Duration = Duration::from_secs(2);

/// Options of BMC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BmcOptions {
    /// The depth from which goal windows are used.
    pub window_from: usize,
    /// The largest window.
    pub max_window: usize,
    /// A query that takes at least this many milliseconds makes BMC ask about windows before
    /// `window_from` too (0: from the first query).
    pub slow_query_ms: usize,
}

impl Default for BmcOptions {
    fn default() -> Self {
        BmcOptions {
            window_from: WINDOW_FROM,
            max_window: MAX_WINDOW,
            slow_query_ms: SLOW_QUERY.as_millis() as usize,
        }
    }
}

impl OptionTable for BmcOptions {
    const ENGINE: &'static str = "BMC";
    const OPTIONS: &'static [Opt<Self>] = &[
        Opt::number(
            "window-from",
            "the depth from which one query asks about a window of steps",
            |o| &mut o.window_from,
        ),
        Opt::number("max-window", "the most steps one query asks about", |o| {
            &mut o.max_window
        }),
        Opt::number(
            "slow-query",
            "milliseconds: a query this slow opens windows below window-from too",
            |o| &mut o.slow_query_ms,
        ),
    ];
}

struct Bmc<'s> {
    sys: &'s System,
    solver: Box<dyn Solver>,
    un: Unrolling<'s>,
    /// The activation literal of each step's goal clauses.
    act: Vec<Lit>,
    /// Per step, the literal under which its `U` and `T` are in force (`c_k` of the module
    /// doc), for the steps a window asks about after its first, when some states may have no
    /// successor.
    reaches: Vec<Option<Lit>>,
    /// Whether some states may have no successor, so that window steps need `c_k`.
    guard_windows: bool,
    calls: usize,
    /// A path to the goal kept by [`Bmc::query`].
    path: Option<Vec<Vec<bool>>>,
    /// The variables on which states are compared by [`Bmc::moves`].
    vars: Vec<crate::sat::Var>,
    /// The calls of [`Bmc::moves`].
    rest_calls: usize,
}

enum Found {
    Yes,
    None,
    Interrupted,
}

impl Bmc<'_> {
    /// Add the next state and its guarded goal clauses.
    /// Add the next state and its guarded goal clauses; with `guard`, its `U` and `T` only in
    /// force on a path that reaches it (see the module doc).
    fn push(&mut self, guard: bool) {
        let s = self.solver.as_mut();
        let k = self.un.len();
        let reaches = if k > 0 && guard {
            let c = s.new_var().pos();
            self.un.push_state_guarded(s, !c, true);
            if let Some(before) = self.reaches[k - 1] {
                s.add_clause(&[!c, before]);
            }
            Some(c)
        } else {
            self.un.push_state(s);
            // Every query from now on asks for a path through the steps before this one.
            if let Some(before) = k.checked_sub(1).and_then(|i| self.reaches[i]) {
                s.add_clause(&[before]);
            }
            None
        };
        if k == 0 {
            self.un.add_section(s, &self.sys.init, 0);
        }
        let a = s.new_var().pos();
        self.un.add_section_guarded(s, &self.sys.bad, k, a);
        if let Some(c) = reaches {
            s.add_clause(&[a, c]);
        }
        self.act.push(a);
        self.reaches.push(reaches);
    }

    /// The assumption that the path reaches step `k` (none when step `k` is always in force).
    fn reaching(&self, k: usize) -> Vec<Lit> {
        self.reaches[k].into_iter().collect()
    }

    /// Is the goal reachable at one of the steps `lo..=hi`? Retires those steps when not.
    /// With `keep_path`, a path to the goal step a SAT answer's model chose is kept in `path`.
    fn query(&mut self, lo: usize, hi: usize, keep_path: bool) -> Found {
        self.calls += 1;
        let s = self.solver.as_mut();
        let r = if lo == hi {
            s.solve(&[!self.act[lo]])
        } else {
            let w = s.new_var().pos();
            let mut clause: Vec<Lit> = self.act[lo..=hi].iter().map(|&a| !a).collect();
            clause.push(!w);
            s.add_clause(&clause);
            let r = s.solve(&[w]);
            // The model is read before the clause below makes the solver forget it.
            if r == SolveResult::Sat && keep_path {
                let k = (lo..=hi)
                    .find(|&j| !s.model_value(self.act[j]))
                    .expect("a SAT window has a goal step");
                self.path = Some(self.un.extract_states(s, k));
            }
            s.add_clause(&[!w]);
            r
        };
        match r {
            SolveResult::Sat => Found::Yes,
            SolveResult::Interrupted => Found::Interrupted,
            SolveResult::Unsat => {
                for j in lo..=hi {
                    s.add_clause(&[self.act[j]]);
                }
                Found::None
            }
        }
    }

    /// Does some path move at step `k ≥ 1` (state `k` differs from state `k - 1`)? `None`
    /// means every path of `k + 1` states repeats its last state.
    fn moves(&mut self, k: usize) -> Found {
        self.rest_calls += 1;
        let s = self.solver.as_mut();
        let w = s.new_var().pos();
        let mut any = vec![!w];
        for &v in &self.vars {
            let (x, y) = (self.un.lit(k - 1, v), self.un.lit(k, v));
            let d = s.new_var().pos();
            s.add_clause(&[!d, x, y]);
            s.add_clause(&[!d, !x, !y]);
            any.push(d);
        }
        s.add_clause(&any);
        let mut assumptions = self.reaching(k);
        assumptions.push(w);
        let r = self.solver.solve(&assumptions);
        self.solver.add_clause(&[!w]);
        match r {
            SolveResult::Sat => Found::Yes,
            SolveResult::Unsat => Found::None,
            SolveResult::Interrupted => Found::Interrupted,
        }
    }

    /// The first step of `lo..=hi` with a path to the goal, knowing there is one.
    fn first(&mut self, mut lo: usize, mut hi: usize) -> Option<usize> {
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.query(lo, mid, false) {
                Found::Yes => hi = mid,
                Found::None => lo = mid + 1,
                Found::Interrupted => return None,
            }
        }
        Some(lo)
    }
}

/// Search for a shortest path to the goal, depth by depth (see the module doc for when the
/// path may be longer).
pub fn run(sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
    BmcOptions::default().run_on(sys, opts, progress)
}

impl SystemEngine for BmcOptions {
    /// [`run`] with BMC's own options.
    fn run_on(&self, sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
        let bmc = self;
        let start = Instant::now();
        let mut b = Bmc {
            sys,
            solver: opts.backend.create(&opts.interrupter),
            un: Unrolling::new(sys),
            act: Vec::new(),
            reaches: Vec::new(),
            guard_windows: !every_state_has_successor(sys, || {
                opts.backend.create(&opts.interrupter)
            }),
            calls: 0,
            path: None,
            vars: sys.simple_path_vars(),
            rest_calls: 0,
        };
        let v = search(&mut b, opts, bmc, progress);
        let mut stats = Stats::new();
        stats
            .counter("depth", b.un.len().saturating_sub(1))
            .counter("SAT calls", b.calls)
            .counter("SAT calls asking whether all paths ended", b.rest_calls)
            .counter(
                "steps in force only on paths that reach them",
                b.reaches.iter().flatten().count(),
            )
            .time("time", start.elapsed());
        b.un.defer_drop();
        super::graveyard::keep(b.solver);
        (v, stats)
    }
}

/// How many steps the query after the `checked` ones asks about.
fn window(bmc: &BmcOptions, checked: usize, slow: bool) -> usize {
    if checked >= bmc.window_from {
        (checked / 8).min(bmc.max_window).max(1)
    } else if slow {
        checked.max(1)
    } else {
        1
    }
}

/// Unrolls the system to step `hi` for a query from step `checked` on, or the verdict that
/// stops the search (the memory budget, an interruption).
fn unroll_to(b: &mut Bmc<'_>, checked: usize, hi: usize, opts: &Options) -> Result<(), Verdict> {
    if too_large(b.sys, hi + 1, (hi + 1).saturating_sub(b.un.len())) {
        return Err(Verdict::Unknown(Unknown::memory(format!(
            "the unrolling would exceed the memory budget (depth {checked})"
        ))));
    }
    while b.un.len() <= hi {
        if opts.interrupter.is_interrupted() {
            return Err(super::stopped(opts));
        }
        // A single step's query asks for no state after it; a window's first step neither.
        let k = b.un.len();
        b.push(b.guard_windows && k > checked);
    }
    Ok(())
}

/// The path to the first step in `checked..=hi` that reaches the goal, once a query of the
/// window found one.
fn shortest_path(b: &mut Bmc<'_>, checked: usize, hi: usize, opts: &Options) -> Verdict {
    let Some(k) = b.first(checked, hi) else {
        return super::stopped(opts);
    };
    // The last query at `k` may have been UNSAT for a sub-window; ask `k` alone.
    match b.solver.solve(&[!b.act[k]]) {
        SolveResult::Sat => Verdict::Unsafe(Plan {
            states: b.un.extract_states(b.solver.as_ref(), k),
        }),
        SolveResult::Interrupted => super::stopped(opts),
        SolveResult::Unsat => Verdict::Unknown(Unknown::internal("BMC lost its counterexample")),
    }
}

/// Searches for a shortest path to the goal, step by step (windows of steps once queries are
/// slow), asking now and then whether every path has ended.
fn search(b: &mut Bmc<'_>, opts: &Options, bmc: &BmcOptions, progress: ProgressFn<'_>) -> Verdict {
    let slow_query = Duration::from_millis(bmc.slow_query_ms as u64);
    let start = Instant::now();
    let interrupted = || super::stopped(opts);
    // Steps 0..checked are known not to reach the goal.
    let mut checked = 0usize;
    // Whether a query has taken longer than `slow_query`: windows from then on.
    let mut slow = false;
    // The depth from which BMC next asks whether all paths have ended.
    let mut next_rest_check = 1;
    loop {
        if opts.interrupter.is_interrupted() {
            return interrupted();
        }
        let max = opts.max_depth.unwrap_or(usize::MAX);
        if checked > max {
            return Verdict::Unknown(Unknown::bound(format!(
                "no goal state within the bound of {max} steps"
            )));
        }
        let hi = (checked + window(bmc, checked, slow) - 1).min(max);
        if let Err(v) = unroll_to(b, checked, hi, opts) {
            return v;
        }
        let asked = Instant::now();
        // In a window opened because queries are slow, the goal step the model chose is
        // taken without bisection (its UNSAT halves are what made the queries slow), so the
        // path may not be a shortest one.
        let found = b.query(checked, hi, checked < bmc.window_from && slow);
        if let Some(states) = b.path.take() {
            return Verdict::Unsafe(Plan { states });
        }
        slow |= asked.elapsed() >= slow_query;
        match found {
            Found::Yes => return shortest_path(b, checked, hi, opts),
            Found::None => checked = hi + 1,
            Found::Interrupted => return interrupted(),
        }
        // A SAT answer costs a model of the whole unrolling, so the depths asked about
        // double: the answer comes at most twice as deep as every path ends.
        if hi >= next_rest_check {
            match b.moves(hi) {
                // Searching for the first step at which no path moves costs more than it
                // saves (a loop of 1000 iterations: 2.4 s to 23 s, and its re-check 3 s to
                // 12 s, proving rest at step 1003 instead of 1501).
                Found::None => return Verdict::Safe(Certificate::Diameter { k: hi }),
                Found::Yes => {}
                Found::Interrupted => return interrupted(),
            }
            next_rest_check = 2 * hi;
        }
        progress(&Progress::new(
            "bmc",
            hi,
            start,
            format!("{} SAT calls", b.calls + b.rest_calls),
        ));
    }
}
