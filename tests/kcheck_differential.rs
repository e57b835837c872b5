//! Differential test of the check of k-induction and diameter certificates
//! (`witness::kcheck`): on random small systems, for every `k` up to a bound,
//! the check accepts `KInduction{k}` and `Diameter{k}` exactly when enumerating all paths over
//! all states says the certificate holds, and a certificate it accepts never belongs to a
//! system whose goal is reachable.

use bitmc::engine::{bmc, Certificate, Options, SystemEngine, Verdict};
use bitmc::sat::{Backend, Interrupter};
use bitmc::ts::System;
use bitmc::witness::{self, kcheck};
use std::collections::HashSet;
use std::time::Duration;

mod systems;
use std::time::Instant;
use systems::{explicit_search, holds, random_system, steps, Rng};

/// The most pairs (visited projections, last state) one layer of [`Layers::simple`] may hold;
/// the enumeration of a system stops at the first layer beyond it.
const LAYER_BUDGET: usize = 100_000;

/// The largest `k` checked.
const MAX_K: usize = 10;

/// The states of a system (bit `v` is variable `v`) and its steps between them.
struct Graph {
    /// The states that satisfy `U`.
    states: Vec<u32>,
    initial: Vec<bool>,
    goal: Vec<bool>,
    /// The states `t` with `U(t)` and `T(s, t)`, per state `s` with `U(s)`.
    succ: Vec<Vec<u32>>,
}

impl Graph {
    fn new(sys: &System) -> Graph {
        let all = 1u32 << sys.num_vars;
        let states: Vec<u32> = (0..all).filter(|&s| holds(&sys.constraints, s)).collect();
        let succ = (0..all)
            .map(|s| {
                states
                    .iter()
                    .copied()
                    .filter(|&t| holds(&sys.constraints, s) && steps(sys, s, t))
                    .collect()
            })
            .collect();
        Graph {
            initial: (0..all).map(|s| holds(&sys.init, s)).collect(),
            goal: (0..all).map(|s| holds(&sys.bad, s)).collect(),
            states,
            succ,
        }
    }

    /// The first states of the paths: all, or the initial ones.
    fn starts(&self, from_initial: bool) -> impl Iterator<Item = u32> + '_ {
        self.states
            .iter()
            .copied()
            .filter(move |&s| !from_initial || self.initial[s as usize])
    }

    /// The states a path may go to from `s`: none from a goal state unless `through_goals`
    /// (paths avoid the goal before their last state).
    fn next(&self, s: u32, through_goals: bool) -> &[u32] {
        if through_goals || !self.goal[s as usize] {
            &self.succ[s as usize]
        } else {
            &[]
        }
    }
}

/// What paths of `m + 1` states exist, for `m = 0, 1, …`: paths with `U` in every state, `T`
/// between consecutive ones, `¬G` in all but the last state, and `I` in the first when asked.
struct Layers {
    /// Per `m`: whether such a path exists, and whether one ends in a goal state.
    exists: Vec<(bool, bool)>,
}

impl Layers {
    /// Paths whose states differ pairwise on `vars`, up to `max_k` steps or the layer budget.
    fn simple(g: &Graph, vars: &[u32], from_initial: bool, max_k: usize) -> Layers {
        let proj = |s: u32| -> u64 {
            let p = vars
                .iter()
                .enumerate()
                .fold(0u32, |p, (i, &v)| p | (((s >> v) & 1) << i));
            1u64 << p
        };
        let mut layer: HashSet<(u64, u32)> = g.starts(from_initial).map(|s| (proj(s), s)).collect();
        let mut exists = Vec::new();
        while exists.len() <= max_k && layer.len() <= LAYER_BUDGET {
            let goal = layer.iter().any(|&(_, s)| g.goal[s as usize]);
            exists.push((!layer.is_empty(), goal));
            let mut next = HashSet::new();
            for &(seen, s) in &layer {
                for &t in g.next(s, false) {
                    if seen & proj(t) == 0 {
                        next.insert((seen | proj(t), t));
                    }
                }
            }
            layer = next;
        }
        Layers { exists }
    }

    /// The same paths without the requirement that states differ, and with goal states
    /// before the last one too when `through_goals`.
    fn any(g: &Graph, from_initial: bool, through_goals: bool, max_k: usize) -> Layers {
        let mut layer: HashSet<u32> = g.starts(from_initial).collect();
        let mut exists = Vec::new();
        while exists.len() <= max_k {
            let goal = layer.iter().any(|&s| g.goal[s as usize]);
            exists.push((!layer.is_empty(), goal));
            layer = layer
                .iter()
                .flat_map(|&s| g.next(s, through_goals))
                .copied()
                .collect();
        }
        Layers { exists }
    }
}

/// The variables on which the states of a simple path differ: those whose next-state copy
/// `T` mentions, and those `I` mentions.
fn compared(sys: &System) -> Vec<u32> {
    let n = sys.num_vars;
    let mut vars: Vec<u32> = sys
        .trans
        .iter()
        .flatten()
        .filter(|l| l.var().0 >= n)
        .map(|l| l.var().0 - n)
        .chain(sys.init.iter().flatten().map(|l| l.var().0))
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// How the sample exercised the check.
#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    rejected: usize,
    /// Rejected only because a goal is reachable within `k` steps.
    by_base: usize,
    /// Accepted although a path of the same shape that repeats a state exists.
    needed_simple: usize,
    /// Rejected because of a goal reachable within `k` steps where no path from an initial
    /// state has `k + 1` states.
    dead_ends: usize,
}

#[test]
fn certificate_check_agrees_with_enumeration() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut tally = [Tally::default(), Tally::default()];
    let stop = Interrupter::new();
    let (mut enumerating, mut checking) = (Duration::ZERO, Duration::ZERO);
    for case in 0..1200 {
        let n = 2 + (case % 3) as u32;
        let sys = random_system(&mut rng, n);
        let reach = explicit_search(&sys);
        let graph = Graph::new(&sys);
        let vars = compared(&sys);
        // More states than projections on `vars` make the simple-path query a pigeonhole
        // problem, exponential for resolution; the engines stop before that.
        let max_k = ((1usize << vars.len()) - 1).min(MAX_K);
        // The backends that check certificates.
        let backend = [Backend::Cadical, Backend::Batsat][case % 2];
        for (which, from_initial) in [(0, false), (1, true)] {
            let started = Instant::now();
            let simple = Layers::simple(&graph, &vars, from_initial, max_k);
            let any = Layers::any(&graph, from_initial, false, max_k);
            let full = Layers::any(&graph, true, true, max_k);
            enumerating += started.elapsed();
            for (k, &(exists, goal)) in simple.exists.iter().enumerate() {
                let base = reach.is_none_or(|d| d > k);
                let path = if from_initial { exists } else { goal };
                let truth = base && !path;
                let cert = if from_initial {
                    Certificate::Diameter { k }
                } else {
                    Certificate::KInduction { k }
                };
                let asked = Instant::now();
                let got = kcheck::check(&sys, &cert, backend, &stop);
                checking += asked.elapsed();
                assert_eq!(
                    got,
                    Ok(truth),
                    "case {case} (n = {n}, {backend}): {cert:?}, goal first reachable at {reach:?}"
                );
                if truth {
                    assert_eq!(
                        reach, None,
                        "case {case}: {cert:?} accepted, goal reachable"
                    );
                }
                let t = &mut tally[which];
                t.accepted += usize::from(truth);
                t.rejected += usize::from(!truth);
                t.by_base += usize::from(!base && !path);
                let (a_exists, a_goal) = any.exists[k];
                t.needed_simple +=
                    usize::from(truth && if from_initial { a_exists } else { a_goal });
                let within = reach.is_some_and(|d| d <= k);
                t.dead_ends += usize::from(within && !full.exists[k].0);
            }
        }
    }
    eprintln!(
        "k-induction: {:?}\ndiameter: {:?}\nenumeration {enumerating:?}, checks {checking:?}",
        tally[0], tally[1]
    );
    for t in &tally {
        assert!(
            t.accepted > 100
                && t.rejected > 100
                && t.by_base > 20
                && t.needed_simple > 20
                && t.dead_ends > 10,
            "the sample does not exercise the check: {tally:?}"
        );
    }
}

/// A goal reached at a state without a successor: the base must not ask for states beyond it.
#[test]
fn a_goal_at_a_dead_end_is_found() {
    let d = |x: i32| bitmc::sat::Lit::from_dimacs(x);
    // One variable x: initially 0; from 0 the next state is 1, from 1 there is none; goal x = 1.
    let mut sys = System {
        num_vars: 1,
        ..System::default()
    };
    sys.init.push(&[d(-1)]);
    sys.trans.push(&[d(1), d(2)]);
    sys.trans.push(&[d(-1)]);
    sys.bad.push(&[d(1)]);
    let stop = Interrupter::new();
    for k in 0..4 {
        for cert in [Certificate::KInduction { k }, Certificate::Diameter { k }] {
            for backend in [Backend::Cadical, Backend::Batsat] {
                assert_eq!(
                    kcheck::check(&sys, &cert, backend, &stop),
                    Ok(false),
                    "{cert:?}"
                );
            }
        }
    }
}

/// A goal at a state without a successor inside one of BMC's windows: a window asking for a
/// goal at one of several steps must not require the states after the step it picks (once,
/// BMC missed the goal there and claimed a diameter). BMC finds the shortest path, and the
/// check accepts no SAFE answer.
#[test]
fn a_goal_at_a_dead_end_inside_a_window_is_found() {
    let d = |x: i32| bitmc::sat::Lit::from_dimacs(x);
    // A counter c (variables 1, 2) from 0 up to 3, where it stays; a flag g (variable 3) that
    // may be set by the step from c = 1 only; no step leaves g = 1, which is the goal.
    let mut sys = System {
        num_vars: 3,
        ..System::default()
    };
    for c in [[-1], [-2], [-3]] {
        sys.init.push(&c.map(d));
    }
    sys.bad.push(&[d(3)]);
    for c in [
        vec![-3],
        vec![-4, -1, 2],
        vec![4, 1],
        vec![4, -2],
        vec![-5, 1, 2],
        vec![5, -1],
        vec![5, -2],
        vec![-6, 1],
        vec![-6, -2],
    ] {
        sys.trans.push(&c.into_iter().map(d).collect::<Vec<_>>());
    }
    assert_eq!(explicit_search(&sys), Some(2));
    for backend in [Backend::Cadical, Backend::Batsat] {
        let opts = Options {
            backend,
            ..Options::default()
        };
        // Every query "slow": windows from the first step on.
        let every_query_slow = bmc::BmcOptions {
            slow_query_ms: 0,
            ..bmc::BmcOptions::default()
        };
        let (v, _) = every_query_slow.run_on(&sys, &opts, &mut |_| {});
        match &v {
            Verdict::Unsafe(plan) => assert_eq!(plan.states.len(), 3, "{backend}"),
            other => panic!("{backend}: {other:?}"),
        }
        let checked = witness::check_bit_level(&sys, v, backend, &opts);
        assert!(
            !matches!(checked.verdict, Verdict::Safe(_)),
            "{backend}: {:?}",
            checked.verdict
        );
    }
}
