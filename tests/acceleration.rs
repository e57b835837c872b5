//! Loop acceleration (`cfa::accelerate`): a jump is added only when its soundness queries are
//! valid, and every complete run of an accelerated CFA is a run of the original one once each
//! jump over `N` iterations is expanded into those iterations.

mod common;

use bitmc::cfa::fold::MAX_FOLD;
use bitmc::cfa::interp::{run_with, Nondet, Outcome, RunOptions, Step};
use bitmc::cfa::{accelerate, fold_fixed_loops, Cfa, Loc, Property};
use bitmc::frontend::{lower_file, lower_source, FrontendOptions};
use bitmc::sat::{Backend, Interrupter};
use bitmc::verify::prepare;
use bitmc::witness::term_valid;
use common::Rng;
use std::collections::HashMap;
use std::path::Path;

fn options(p: Property) -> FrontendOptions {
    FrontendOptions {
        property: p,
        lbe: false,
        ..FrontendOptions::default()
    }
}

fn lower(f: &Path, p: Property) -> Option<Cfa> {
    lower_file(f, &options(p))
        .ok()
        .map(|l| prepare(&l.cfa, true))
}

fn lower_text(src: &str) -> Cfa {
    let l = lower_source(src, "t.c", &options(Property::UnreachCall)).expect("lowers");
    prepare(&l.cfa, true)
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

/// How a run ended, with the location by what it is rather than by its number (folding
/// renumbers the locations).
fn ended(cfa: &Cfa, out: &Outcome) -> String {
    let at = |l: &Loc| format!("{:?}", cfa.locations[l.index()]);
    match out {
        Outcome::Error { property, loc } => format!("error {property} at {}", at(loc)),
        Outcome::Sink { reason, loc } => format!("sink {reason} at {}", at(loc)),
        Outcome::Exit => "exit".to_string(),
        Outcome::AssumeFailed { loc } => format!("blocked at {}", at(loc)),
        Outcome::NondetExhausted { loc } => format!("no more values at {}", at(loc)),
        Outcome::StepLimit { loc } => format!("step limit at {}", at(loc)),
    }
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
                // that used up the sequence or the steps is not complete; the others must be
                // the same.
                if matches!(
                    out,
                    Outcome::AssumeFailed { .. }
                        | Outcome::NondetExhausted { .. }
                        | Outcome::StepLimit { .. }
                ) {
                    continue;
                }
                // A run of millions of iterations would take minutes to replay in a debug build.
                let Some((expanded, iterations)) =
                    a.expand(Nondet::Sequence(&seq), &steps, 1_000_000)
                else {
                    continue;
                };
                let iterations = iterations as usize;
                jumps += (iterations > 0) as usize;
                // As many edges as the accelerated run took, counting each jumped iteration
                // as one and each folded edge as up to MAX_FOLD + 2 edges, or their square for
                // a folded loop inside another.
                let exact = RunOptions {
                    step_limit: (steps.len() + iterations) * (MAX_FOLD + 2).pow(2),
                    ..RunOptions::default()
                };
                let (orig_out, orig_steps) = run_with(&cfa, &expanded, exact);
                assert_eq!(
                    ended(&a.cfa, &out),
                    ended(&cfa, &orig_out),
                    "{} ({p}): sequence {seq:?}",
                    f.display()
                );
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
    eprintln!("{checked_runs} runs checked, {jumps} of them with a jump");
    assert!(
        checked_runs >= 100,
        "only {checked_runs} complete runs checked"
    );
    assert!(jumps >= 20, "only {jumps} runs with a jump");
}

/// The last value `run` wrote to the variable named `name` of `cfa`.
fn last_written(cfa: &Cfa, steps: &[Step], name: &str) -> Option<u128> {
    let v = cfa.vars.iter().position(|v| v.name == name)?;
    steps
        .iter()
        .flat_map(|s| s.writes.iter())
        .rev()
        .find(|(x, _)| x.index() == v)
        .map(|&(_, val)| val)
}

#[test]
fn polynomial_loops_jump_by_closed_forms() {
    // Cubes by finite differences: c, d, e move with degrees 3, 2, 1. The jump is unproved
    // (no soundness query is asked: a prover that proves nothing does not stop it).
    let cubes = "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);\n\
         int main(void) { int lim = __VERIFIER_nondet_int(); int i = 0, c = 0, d = 1, e = 6; \
         while (i < lim) { i++; c += d; d += e; e += 6; } \
         if (c == 12345) reach_error(); return 0; }";
    let cfa = lower_text(cubes);
    let a = accelerate(&cfa, &mut |_, _| false).expect("a jump by closed forms");
    assert_eq!((a.loops.len(), a.unproved.len()), (0, 1), "{}", a.summary());
    // lim = 100, then the first iteration and a jump over 50 more: 51 iterations in all.
    let (out, steps) = run_with(&a.cfa, &[100, 50], RunOptions::default());
    assert!(matches!(out, Outcome::NondetExhausted { .. }), "{out:?}");
    let value = |n: &str| last_written(&a.cfa, &steps, &format!("main::{n}"));
    assert_eq!(value("i"), Some(51));
    assert_eq!(value("c"), Some(51 * 51 * 51));
    assert_eq!(value("d"), Some(3 * 51 * 51 + 3 * 51 + 1));
    assert_eq!(value("e"), Some(6 * 51 + 6));
    // The jump's condition is the loop's guard before the last iteration: with lim = 30 a jump
    // over 29 more iterations is taken (and the run then leaves the loop, for the exit, which
    // the error cannot be reached from, was pruned), one over 30 is not.
    let (out, steps) = run_with(&a.cfa, &[30, 29], RunOptions::default());
    assert!(matches!(out, Outcome::AssumeFailed { .. }), "{out:?}");
    assert_eq!(last_written(&a.cfa, &steps, "main::c"), Some(27_000));
    let (out, steps) = run_with(&a.cfa, &[30, 30], RunOptions::default());
    assert!(matches!(out, Outcome::AssumeFailed { .. }), "{out:?}");
    let c = last_written(&a.cfa, &steps, "main::c");
    assert!(matches!(c, Some(0 | 1)), "{c:?}");
    // Signed values stay in range: `s += i` leaves int's range in iteration 65537, so a jump
    // past it is not taken.
    let sums = "extern void reach_error(void);\n\
         int main(void) { int s = 0; for (int i = 0; i < 100000; i++) s += i; \
         if (s == 7) reach_error(); return 0; }";
    let cfa = lower_text(sums);
    let a = accelerate(&cfa, &mut |_, _| false).expect("a jump by closed forms");
    // After 1 + n iterations s = n (n + 1) / 2, at most 2^31 - 1 for n ≤ 65535.
    let (out, steps) = run_with(&a.cfa, &[65535], RunOptions::default());
    assert!(matches!(out, Outcome::NondetExhausted { .. }), "{out:?}");
    assert_eq!(
        last_written(&a.cfa, &steps, "main::s"),
        Some(65535 * 65536 / 2)
    );
    let (out, _) = run_with(&a.cfa, &[65536], RunOptions::default());
    assert!(matches!(out, Outcome::AssumeFailed { .. }), "{out:?}");
    let two_vars = |body: &str| {
        format!(
            "extern unsigned int __VERIFIER_nondet_uint(void); extern void reach_error(void);\n\
             int main(void) {{ unsigned int x = __VERIFIER_nondet_uint(), y = __VERIFIER_nondet_uint(), k = 0; \
             while (k < 1000 && x != y) {{ {body} }} if (k == 77) reach_error(); return 0; }}"
        )
    };
    // A value that depends on a branch on a flag the loop does not write: each alternative
    // jumps on its own, over iterations that all take it. With f = 0, x = 100, y = 7 the
    // first iteration leaves x = 93; 13 more of `x -= y` leave x = 2 (x > y holds before the
    // last of them); 14 more are not taken (nor is the step, which begins with the first).
    let flagged = "extern unsigned int __VERIFIER_nondet_uint(void); extern void reach_error(void);\n\
         int main(void) { unsigned int f = __VERIFIER_nondet_uint(), x = __VERIFIER_nondet_uint(), \
         y = __VERIFIER_nondet_uint(); \
         while (x > y) { if (f) { x -= 2 * y; } else { x -= y; } } if (x == 77) reach_error(); return 0; }";
    let a = accelerate(&lower_text(flagged), &mut |_, _| false).expect("jumps by closed forms");
    assert_eq!(a.unproved.len(), 1, "{}", a.summary());
    // (Both runs then stop at the loop head: x ≤ y there, and the exit that cannot reach the
    // error was pruned.)
    let (out, steps) = run_with(&a.cfa, &[0, 100, 7, 13], RunOptions::default());
    assert!(matches!(out, Outcome::AssumeFailed { .. }), "{out:?}");
    assert_eq!(last_written(&a.cfa, &steps, "main::x"), Some(2));
    let (out, steps) = run_with(&a.cfa, &[0, 100, 7, 14], RunOptions::default());
    assert!(matches!(out, Outcome::AssumeFailed { .. }), "{out:?}");
    assert_eq!(last_written(&a.cfa, &steps, "main::x"), Some(100));
    // With f = 1 the other alternative: x = 86 after the first iteration, 5 more leave 16.
    let (out, steps) = run_with(&a.cfa, &[1, 100, 7, 5], RunOptions::default());
    assert!(matches!(out, Outcome::NondetExhausted { .. }), "{out:?}");
    assert_eq!(last_written(&a.cfa, &steps, "main::x"), Some(16));
    // Not polynomial: a branch on the moving variables (its runs of one alternative are
    // short, and each would make BMC's steps dearer), a remainder, a doubling.
    for body in [
        "if (x > y) x -= y; else y -= x;",
        "k += x % 3; x++;",
        "x *= 2; k++;",
    ] {
        let a = accelerate(&lower_text(&two_vars(body)), &mut |_, _| false);
        assert!(
            a.as_ref().is_none_or(|a| a.unproved.is_empty()),
            "{body}: {}",
            a.map(|a| a.summary()).unwrap_or_default()
        );
    }
}

#[test]
fn only_constant_increments_are_proved_candidates() {
    let yes = &mut |_: &bitmc::bv::TermManager, _: bitmc::bv::TermId| true;
    // `x *= 2` moves x by a different amount in every iteration, and not polynomially: no
    // jump, whatever the prover.
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

#[test]
fn inner_loops_of_a_fixed_trip_count_are_folded() {
    // `y = 0; while (y < 8) y++;` in the outer loop: folded, and the outer loop then jumps.
    let a = accelerated(&fixture("loops/nested_fixed_inner.c")).expect("folded");
    assert_eq!((a.folded.len(), a.loops.len()), (1, 1), "{}", a.summary());
    // With a check inside the inner loop (an exit that is never taken), the folded CFA has
    // the runs of the original: same outcome and values for every outer bound.
    let orig = fixture("loops/nested_fixed_inner_check.c");
    let (folded, heads) = fold_fixed_loops(&orig).expect("folded");
    assert_eq!(heads.len(), 1);
    assert_eq!(folded.locations.len() + 1, orig.locations.len());
    let opts = RunOptions {
        step_limit: 100_000,
        ..RunOptions::default()
    };
    for n in [0u128, 1, 2, 7, 1000, 100_001] {
        let (out, steps) = run_with(&orig, &[n], opts);
        let (fout, fsteps) = run_with(&folded, &[n], opts);
        assert_eq!(ended(&orig, &out), ended(&folded, &fout), "n = {n}");
        let vars = orig.vars.len();
        assert_eq!(
            final_values(&steps, vars),
            final_values(&fsteps, vars),
            "n = {n}"
        );
        assert!(
            n == 0 || n > 100_000 || fsteps.len() < steps.len(),
            "n = {n}"
        );
    }
    // The exit taken need not be the loop's condition: a `break` after 5 iterations (t grows
    // by 5 per outer iteration, 10 if the fold ran the loop to its condition), and the error
    // location at the sixth iteration.
    let outer = |inner: &str| {
        format!(
            "extern unsigned int __VERIFIER_nondet_uint(void); extern void reach_error(void);\n\
             int main(void) {{ unsigned int n = __VERIFIER_nondet_uint(), i, j, t = 0; \
             for (i = 0; i < n; i++) for (j = 0; j < 10; j++) {{ {inner} t++; }} \
             if (t == 15) reach_error(); return 0; }}"
        )
    };
    type ErrorWhen = fn(u128) -> bool;
    let reaches: [(&str, ErrorWhen); 2] = [
        ("if (j == 5) break;", |n| n == 3),
        ("if (j == 5) reach_error();", |n| n >= 1),
    ];
    for (inner, error_for) in reaches {
        let orig = lower_text(&outer(inner));
        let (folded, heads) = fold_fixed_loops(&orig).expect("folded");
        assert_eq!(heads.len(), 1, "{inner}");
        for n in 0..6u128 {
            let (out, steps) = run_with(&orig, &[n], opts);
            let (fout, fsteps) = run_with(&folded, &[n], opts);
            assert_eq!(
                ended(&orig, &out),
                ended(&folded, &fout),
                "{inner}, n = {n}"
            );
            let vars = orig.vars.len();
            assert_eq!(
                final_values(&steps, vars),
                final_values(&fsteps, vars),
                "{inner}, n = {n}"
            );
            assert_eq!(out.is_target(), error_for(n), "{inner}, n = {n}");
        }
    }
    // Inner loops whose trip count is not fixed are left alone: it depends on a nondet value,
    // on the outer loop, or it exceeds the limit; and one that leaves through a nondet exit.
    let n_by_n = fixture("loops/nested_square.c");
    assert!(fold_fixed_loops(&n_by_n).is_none());
    let shapes = [
        "unsigned int i, j, t; for (i = 0; i < 9; i++) for (j = 0; j < i; j++) t++;",
        "unsigned int i, j, t; for (i = 0; i < 9; i++) for (j = 0; j < 65; j++) t++;",
        "unsigned int i, j, t; for (i = 0; i < 9; i++) for (j = 0; j < 3 && __VERIFIER_nondet_int(); j++) t++;",
    ];
    for body in shapes {
        let src = format!(
            "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);\n\
             int main(void) {{ {body} if (t == 5) reach_error(); return 0; }}"
        );
        assert!(fold_fixed_loops(&lower_text(&src)).is_none(), "{body}");
    }
    let src = "extern void reach_error(void);\n\
               int main(void) { unsigned int i, j, t; for (i = 0; i < 9; i++) \
               for (j = 0; j < 64; j++) t++; if (t == 5) reach_error(); return 0; }";
    assert!(
        fold_fixed_loops(&lower_text(src)).is_some(),
        "64 iterations fold"
    );
    // A folded loop inside another makes that one's body large: 64 copies of it are too many.
    let src = "extern void reach_error(void);\n\
               int main(void) { unsigned int i, j, k, t; for (i = 0; i < 9; i++) \
               for (j = 0; j < 64; j++) for (k = 0; k < 64; k++) t++; \
               if (t == 5) reach_error(); return 0; }";
    let (_, heads) = fold_fixed_loops(&lower_text(src)).expect("the innermost loop folds");
    assert_eq!(heads.len(), 1);
}

#[test]
fn nested_loops_run_whole_in_one_step() {
    // Three nested loops of 50 iterations: the two inner ones are summarised, and all three
    // jump (proved).
    let src = "extern void reach_error(void);\n\
         int main(void) { unsigned x, y, z; for (x = 0; x < 50u; x++) for (y = 0; y < 50u; y++) \
         for (z = 0; z < 50u; z++) if (z == 49u && y == z && x == y) reach_error(); return 0; }";
    let a = accelerated(&lower_text(src)).expect("accelerated");
    assert_eq!(
        (a.loops.len(), a.summaries.len()),
        (3, 2),
        "{}",
        a.summary()
    );
    assert!(a.unproved.is_empty());
    // The outer loop's whole-run step: the middle loop run whole (z = 50 iterations), each
    // of its iterations running the inner one whole (50; the counts inside a whole run are
    // read off the exits' guards and consume no values), then 48 more outer iterations:
    // x = 49. Then the middle loop entered (0) and run whole in one step up to y = 49 (48
    // more), the inner one entered (0) and jumped to z = 49 (48 more).
    let seq = [50, 50, 48, 0, 50, 48, 0, 48];
    let (out, steps) = run_with(&a.cfa, &seq, RunOptions::default());
    assert!(matches!(out, Outcome::Error { .. }), "{out:?}");
    for (v, n) in [("x", 49), ("y", 49), ("z", 49)] {
        assert_eq!(last_written(&a.cfa, &steps, &format!("main::{v}")), Some(n));
    }
    // Such a run is not expanded into the program's steps.
    assert!(a.runs_nested_whole(&steps));
    assert!(a
        .expand(Nondet::Sequence(&seq), &steps, u128::MAX)
        .is_none());
    // A whole run's count must be the inner loop's: 49 iterations of the middle loop are not
    // its 50.
    let mut wrong = seq;
    wrong[0] = 49;
    let (out, _) = run_with(&a.cfa, &wrong, RunOptions::default());
    assert!(!matches!(out, Outcome::Error { .. }), "{out:?}");
    // One outer iteration too many: x = 50 leaves the loop, and the error is not reached.
    let mut past = seq;
    past[2] = 49;
    let (out, _) = run_with(&a.cfa, &past, RunOptions::default());
    assert!(!matches!(out, Outcome::Error { .. }), "{out:?}");
}

#[test]
fn whole_runs_count_the_inner_iterations() {
    // `count++` in an inner loop of 90 iterations: its whole run moves count by 90, a
    // constant, so the outer loop jumps too (the inner count is read off the exit's guard).
    let src = "extern void reach_error(void);\n\
         int main(void) { unsigned long long count = 0; for (unsigned i = 0; i < 6000u; i += 3) { \
         for (unsigned j = 0; j < 90u; j++) count++; if (count > 179999ULL) reach_error(); } return 0; }";
    let a = accelerated(&lower_text(src)).expect("accelerated");
    assert_eq!(
        (a.loops.len(), a.summaries.len()),
        (2, 1),
        "{}",
        a.summary()
    );
    // One whole-run step of 90 inner iterations, 1998 more of them (count = 1999·90), then
    // the inner loop entered (0) and jumped over 89 more: 180,000.
    let seq = [90, 1998, 0, 89];
    let (out, steps) = run_with(&a.cfa, &seq, RunOptions::default());
    assert!(matches!(out, Outcome::Error { .. }), "{out:?}");
    let count = last_written(&a.cfa, &steps, "main::count");
    assert_eq!(count, Some(180_000));
    // The whole run's count is the inner loop's: 89 is not.
    let (out, _) = run_with(&a.cfa, &[89, 1998, 0, 89], RunOptions::default());
    assert!(!matches!(out, Outcome::Error { .. }), "{out:?}");
}
