//! IC3CFA's counters and the statistics `-v` prints from them: the work of each kind of
//! query, and the hits of each of the papers' improvements, so that a technique's effect can be
//! read off a run (`scripts/bench-stats.py` sums them over a benchmark).

use super::Ic3cfa;
use crate::engine::Stats;
use std::time::Duration;

/// Counters for `-v`.
#[derive(Default)]
pub(super) struct Counters {
    pub(super) obligations: usize,
    pub(super) predecessors: usize,
    pub(super) predecessor_literals: usize,
    pub(super) lemmas: usize,
    pub(super) literals_before: usize,
    pub(super) literals_after: usize,
    pub(super) sat_relind: usize,
    pub(super) sat_gen: usize,
    pub(super) sat_push: usize,
    pub(super) sat_time: Duration,
    pub(super) relind_time: Duration,
    pub(super) generalisations: usize,
    pub(super) gen_time: Duration,
    pub(super) pushed: usize,
    pub(super) push_tried: usize,
    pub(super) push_filtered: usize,
    pub(super) stable_rounds: usize,
    pub(super) stable_stops: usize,
    pub(super) bit_splits: usize,
    pub(super) precube_hits: usize,
    pub(super) assumed_dropped: usize,
    pub(super) upper_hits: usize,
    pub(super) lower_hits: usize,
    pub(super) reused: usize,
    pub(super) skipped: usize,
    pub(super) ctgs: usize,
    pub(super) wp_cache_hits: usize,
}

impl Ic3cfa<'_> {
    /// The statistics of the run so far.
    pub(super) fn stats(&self) -> Stats {
        let n = &self.n;
        let blocked = n.lemmas - n.pushed;
        let made: Vec<u32> = self
            .solvers
            .iter()
            .flatten()
            .map(|s| s.num_vars())
            .collect();
        let solver_vars: u64 = made.iter().map(|&v| v as u64).sum();
        let held = self.tm.heap_bytes() + self.circuit.aig.heap_bytes();
        let mut s = Stats::new();
        s.counter("ic3cfa obligations handled", n.obligations)
            .counter("ic3cfa predecessors", n.predecessors)
            .mean(
                "ic3cfa predecessors' mean literals",
                n.predecessor_literals as f64,
                n.predecessors,
                2,
            )
            .counter("ic3cfa lemmas", n.lemmas)
            .counter("ic3cfa lemmas kept", self.lemmas.len())
            .counter("ic3cfa lemmas pushed", n.pushed)
            .mean(
                "ic3cfa mean cube before generalisation",
                n.literals_before as f64,
                blocked,
                2,
            )
            .mean(
                "ic3cfa mean cube after generalisation",
                n.literals_after as f64,
                blocked,
                2,
            )
            .counter("ic3cfa SAT calls", n.sat_relind + n.sat_gen + n.sat_push)
            .counter("ic3cfa SAT calls for relative induction", n.sat_relind)
            .counter("ic3cfa SAT calls for generalisation", n.sat_gen)
            .counter("ic3cfa SAT calls for pushing", n.sat_push)
            .time("ic3cfa time in SAT", n.sat_time)
            .time("ic3cfa time in relative induction", n.relind_time)
            .counter("ic3cfa generalisations", n.generalisations)
            .time("ic3cfa time generalising", n.gen_time)
            .counter("ic3cfa equalities split into bits", n.bit_splits)
            .counter("ic3cfa pushes tried", n.push_tried)
            .counter("ic3cfa pushes filtered out", n.push_filtered)
            .counter("ic3cfa stable rounds", n.stable_rounds)
            .counter("ic3cfa stable-iteration stops", n.stable_stops)
            .counter("ic3cfa predecessor-cube hits", n.precube_hits)
            .counter(
                "ic3cfa literals dropped as assumed by the edge",
                n.assumed_dropped,
            )
            .counter("ic3cfa context hits of upper bounds", n.upper_hits)
            .counter("ic3cfa context hits of lower bounds", n.lower_hits)
            .counter("ic3cfa contexts kept", self.contexts.len())
            .counter("ic3cfa obligations reused", n.reused)
            .counter("ic3cfa obligations skipped", n.skipped)
            .counter("ic3cfa CTGs blocked", n.ctgs)
            .counter("ic3cfa WP-inductivity answers reused", n.wp_cache_hits)
            .counter("ic3cfa terms", self.tm.len())
            .counter("ic3cfa AND gates", self.circuit.aig.num_ands())
            .real("ic3cfa MiB held", held as f64 / (1 << 20) as f64, 0)
            .counter("ic3cfa solvers", made.len())
            .mean(
                "ic3cfa solvers' mean variables",
                solver_vars as f64,
                made.len(),
                2,
            );
        s
    }
}
