//! Loop acceleration (`cfa::accelerate`): a jump is added only when its soundness queries are
//! valid, and every complete run of an accelerated CFA is a run of the original one once each
//! jump over `N` iterations is expanded into those iterations.

mod common;

use bitmc::cfa::interp::{run_with, Outcome, RunOptions, Step};
use bitmc::cfa::{accelerate, Cfa, Property};
use bitmc::frontend::{lower_file, FrontendOptions};
use bitmc::sat::{Backend, Interrupter};
use bitmc::verify::prepare;
use bitmc::witness::term_valid;
use common::Rng;
use std::collections::HashMap;
use std::path::Path;

fn lower(f: &Path, p: Property) -> Option<Cfa> {
    let opts = FrontendOptions {
        property: p,
        lbe: false,
        ..FrontendOptions::default()
    };
    lower_file(f, &opts).ok().map(|l| prepare(&l.cfa, true))
}

fn accelerated(cfa: &Cfa) -> Option<bitmc::cfa::Accelerated> {
    let intr = Interrupter::new();
    accelerate(cfa, &mut |tm, t| term_valid(tm, t, Backend::Cadical, &intr))
}

fn fixture(name: &str) -> Cfa {
    let f = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/c")
        .join(name);
    lower(&f, Property::UnreachCall).expect("fixture lowers")
}

#[test]
fn only_jumps_proved_sound_are_added() {
    // `while (x < 300000) x += 2`: the guard holds between the ends of a run of iterations.
    let a = accelerated(&fixture("loops/deep_even_counter.c")).expect("the loop is accelerated");
    assert_eq!(a.loops.len(), 1);
    // `while (x != 9) { x += 3; n++; }`: it need not, and the step query has a counterexample
    // (x = 3 jumping over x = 9), so the loop is left alone.
    assert!(accelerated(&fixture("loops/counter_guard_not_interval.c")).is_none());
    // A prover that proves nothing accelerates nothing.
    let c = fixture("loops/deep_even_counter.c");
    assert!(accelerate(&c, &mut |_, _| false).is_none());
}

/// The values of the variables after a run.
fn final_values(steps: &[Step], vars: usize) -> HashMap<usize, u128> {
    let mut m = HashMap::new();
    for s in steps {
        for &(v, x) in &s.writes {
            if v.index() < vars {
                m.insert(v.index(), x);
            }
        }
    }
    m
}

/// The nondet sequence of the original CFA for a run of the accelerated one: a step that jumped
/// over `N` iterations repeats the iteration's nondet values `N` more times. Also returns the
/// number of iterations jumped over.
fn expand(orig: &Cfa, steps: &[Step]) -> (Vec<u128>, usize) {
    let mut seq = Vec::new();
    let mut jumps = 0;
    for s in steps {
        // The count variables are the ones acceleration added.
        let count = s
            .nondet
            .iter()
            .position(|&(v, _)| v.index() >= orig.vars.len());
        match count {
            Some(i) => {
                let n = s.nondet[i].1;
                jumps += n as usize;
                let iteration: Vec<u128> = s.nondet[..i].iter().map(|&(_, x)| x).collect();
                for _ in 0..=n {
                    seq.extend(&iteration);
                }
            }
            None => seq.extend(s.nondet.iter().map(|&(_, x)| x)),
        }
    }
    (seq, jumps)
}

#[test]
fn accelerated_runs_are_runs_of_the_original() {
    let mut checked_runs = 0;
    let mut jumps = 0;
    for f in common::fixture_files() {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let mut rng = Rng(0x1234_5678_9abc_def1, common::literal_pool(&text));
        for p in [Property::UnreachCall, Property::NoOverflow] {
            let Some(cfa) = lower(&f, p) else { continue };
            let Some(a) = accelerated(&cfa) else { continue };
            for _ in 0..300 {
                // Values from the program text, boundaries, and many small ones, so that the
                // program's assumptions and the jumps' conditions hold often.
                let seq: Vec<u128> = (0..64)
                    .map(|_| {
                        if rng.below(2) == 0 {
                            rng.interesting() as u128
                        } else {
                            rng.below(12) as u128
                        }
                    })
                    .collect();
                let opts = RunOptions {
                    step_limit: 50,
                    ..RunOptions::default()
                };
                let (out, steps) = run_with(&a.cfa, &seq, opts);
                // A run cut short by a failed jump condition may go on in the original, and one
                // that used up the sequence is not complete; the others must be the same.
                if matches!(
                    out,
                    Outcome::AssumeFailed { .. } | Outcome::NondetExhausted { .. }
                ) {
                    continue;
                }
                let (expanded, iterations) = expand(&cfa, &steps);
                jumps += (iterations > 0) as usize;
                // The same number of edges, counting each jumped iteration as one.
                let exact = RunOptions {
                    step_limit: steps.len() + iterations,
                    ..RunOptions::default()
                };
                let (orig_out, orig_steps) = run_with(&cfa, &expanded, exact);
                assert_eq!(out, orig_out, "{} ({p}): sequence {seq:?}", f.display());
                assert_eq!(
                    final_values(&steps, cfa.vars.len()),
                    final_values(&orig_steps, cfa.vars.len()),
                    "{} ({p}): sequence {seq:?}",
                    f.display()
                );
                checked_runs += 1;
            }
        }
    }
    eprintln!("{checked_runs} runs checked, {jumps} iterations jumped over");
    assert!(
        checked_runs >= 100,
        "only {checked_runs} complete runs checked"
    );
    assert!(jumps >= 20, "only {jumps} iterations jumped over");
}

#[test]
fn only_constant_increments_are_candidates() {
    let yes = &mut |_: &bitmc::bv::TermManager, _: bitmc::bv::TermId| true;
    // `x *= 2` moves x by a different amount in every iteration: no jump, whatever the prover.
    assert!(accelerate(&fixture("loops/doubling_overflow.c"), yes).is_none());
    // `x += 2`: a jump over 10 iterations after the first one moves x from 2 to 22.
    let a = accelerate(&fixture("loops/deep_even_counter.c"), yes).expect("a candidate");
    let (out, steps) = run_with(&a.cfa, &[10], RunOptions::default());
    assert!(matches!(out, Outcome::NondetExhausted { .. }), "{out:?}");
    let x = a
        .cfa
        .vars
        .iter()
        .position(|v| v.name == "main::x")
        .expect("x");
    let written: Vec<u128> = steps
        .iter()
        .flat_map(|s| s.writes.iter())
        .filter(|(v, _)| v.index() == x)
        .map(|&(_, val)| val)
        .collect();
    assert_eq!(written, vec![0, 2, 22]);
}
