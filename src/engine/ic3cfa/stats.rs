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
        let mean = |a: usize, b: usize| {
            if b == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", a as f64 / b as f64)
            }
        };
        let lemmas_now = self.lemmas.len();
        let blocked = self.n.lemmas - self.n.pushed;
        vec![
            ("ic3cfa obligations handled", n.obligations.to_string()),
            (
                "ic3cfa predecessors (mean literals)",
                format!(
                    "{} ({})",
                    n.predecessors,
                    mean(n.predecessor_literals, n.predecessors)
                ),
            ),
            (
                "ic3cfa lemmas (kept, pushed)",
                format!("{} ({lemmas_now}, {})", n.lemmas, n.pushed),
            ),
            (
                "ic3cfa mean cube before/after generalisation",
                format!(
                    "{} / {}",
                    mean(n.literals_before, blocked),
                    mean(n.literals_after, blocked)
                ),
            ),
            (
                "ic3cfa SAT calls (relative induction, generalisation, push)",
                format!(
                    "{} ({}, {}, {})",
                    n.sat_relind + n.sat_gen + n.sat_push,
                    n.sat_relind,
                    n.sat_gen,
                    n.sat_push
                ),
            ),
            (
                "ic3cfa time in SAT",
                format!("{:.3} s", n.sat_time.as_secs_f64()),
            ),
            (
                "ic3cfa time in relative induction",
                format!("{:.6} s", n.relind_time.as_secs_f64()),
            ),
            ("ic3cfa generalisations", n.generalisations.to_string()),
            (
                "ic3cfa time generalising",
                format!("{:.6} s", n.gen_time.as_secs_f64()),
            ),
            (
                "ic3cfa equalities split into bits",
                n.bit_splits.to_string(),
            ),
            (
                "ic3cfa pushes (tried, succeeded)",
                format!("{}, {}", n.push_tried, n.pushed),
            ),
            ("ic3cfa pushes filtered out", n.push_filtered.to_string()),
            ("ic3cfa stable rounds", n.stable_rounds.to_string()),
            ("ic3cfa stable-iteration stops", n.stable_stops.to_string()),
            ("ic3cfa predecessor-cube hits", n.precube_hits.to_string()),
            (
                "ic3cfa literals dropped as assumed by the edge",
                n.assumed_dropped.to_string(),
            ),
            (
                "ic3cfa context hits (upper bounds, lower bounds; contexts kept)",
                format!(
                    "{}, {}; {}",
                    n.upper_hits,
                    n.lower_hits,
                    self.contexts.len()
                ),
            ),
            (
                "ic3cfa obligations (reused, skipped)",
                format!("{}, {}", n.reused, n.skipped),
            ),
            ("ic3cfa CTGs blocked", n.ctgs.to_string()),
            (
                "ic3cfa WP-inductivity answers reused",
                n.wp_cache_hits.to_string(),
            ),
            (
                "ic3cfa terms, AND gates (MiB held)",
                format!(
                    "{}, {} ({:.0})",
                    self.tm.len(),
                    self.circuit.aig.num_ands(),
                    (self.tm.heap_bytes() + self.circuit.aig.heap_bytes()) as f64
                        / (1 << 20) as f64
                ),
            ),
            ("ic3cfa solvers (mean variables)", {
                let made: Vec<u32> = self
                    .solvers
                    .iter()
                    .flatten()
                    .map(|s| s.num_vars())
                    .collect();
                let total: u64 = made.iter().map(|&v| v as u64).sum();
                format!("{} ({})", made.len(), mean(total as usize, made.len()))
            }),
        ]
    }
}
