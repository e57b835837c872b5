//! Incremental bounded model checking (seed 003, §2.0.1).
//!
//! Step 0 adds `I(0)`, `U(0)` and `a_0 ∨ G(0)`; step `k` adds `T(k-1, k)`, `U(k)` and
//! `a_k ∨ G(k)` (every goal clause weakened by the activation literal `a_k`) and solves under
//! `¬a_k`. After an UNSAT step the unit `a_k` retires that step's goal clauses. The first SAT
//! answer gives a shortest path to the goal. BMC alone never proves the goal unreachable; it
//! answers UNKNOWN at `max_depth` or when interrupted.

use super::unroll::Unrolling;
use super::{Options, Progress, ProgressFn, Stats, Verdict};
use crate::sat::SolveResult;
use crate::ts::{Plan, System};
use std::time::Instant;

/// Search for a shortest path to the goal, depth by depth.
pub fn run(sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats) {
    let start = Instant::now();
    let mut depth = 0;
    let v = search(sys, opts, progress, &mut depth);
    let stats = vec![
        ("depth", depth.to_string()),
        ("time", format!("{:.3} s", start.elapsed().as_secs_f64())),
    ];
    (v, stats)
}

fn search(sys: &System, opts: &Options, progress: ProgressFn<'_>, depth: &mut usize) -> Verdict {
    let start = Instant::now();
    let mut solver = opts.backend.create(&opts.interrupter);
    let solver = solver.as_mut();
    let mut un = Unrolling::new(sys);
    let mut k = 0usize;
    loop {
        if opts.max_depth.is_some_and(|m| k > m) {
            return Verdict::Unknown(format!("no goal state within the bound of {} steps", k - 1));
        }
        if opts.interrupter.is_interrupted() {
            return Verdict::Unknown("interrupted".into());
        }
        un.push_state(solver);
        if k == 0 {
            un.add_section(solver, &sys.init, 0);
        }
        *depth = k;
        let a = solver.new_var().pos();
        un.add_section_guarded(solver, &sys.bad, k, a);
        match solver.solve(&[!a]) {
            SolveResult::Sat => {
                return Verdict::Unsafe(Plan {
                    states: un.extract_states(solver, k),
                });
            }
            SolveResult::Unsat => solver.add_clause(&[a]),
            SolveResult::Interrupted => return Verdict::Unknown("interrupted".into()),
        }
        progress(&Progress {
            engine: "bmc",
            depth: k,
            elapsed: start.elapsed(),
        });
        k += 1;
    }
}
