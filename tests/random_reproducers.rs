//! Programs the random-program test (`tests/frontend_random_programs.rs`) found bitmc
//! mishandling, reduced by hand, each checked against gcc where the answer is a nondet
//! sequence.

mod common;
mod random;

use bitmc::frontend::{lower_source, FrontendOptions};
use bitmc::verify::{prepare, ProgramVerdict};
use random::check::{program_sequence, strategies, verify};
use random::oracle::{self, Gcc};

const DECLS: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n";

/// BMC's verdict on `main` (with the usual declarations and `int f(void)` returning 1), and whether the nondet sequence of
/// its counterexample (`expanded`: with the jumps of accelerated loops expanded into their
/// iterations; otherwise `trace.nondet` as printed) makes the program compiled by gcc reach
/// the error. `None` without gcc.
fn bmc_replays(name: &str, body: &str, expanded: bool) -> Option<(ProgramVerdict, bool)> {
    let src =
        format!("{DECLS}int f(void) {{ return 1; }}\nint main(void) {{\n{body}\n  return 0;\n}}\n");
    let dir = std::env::temp_dir().join(format!("bitmc-{name}-{}", std::process::id()));
    let Some(gcc) = Gcc::new(&dir) else {
        eprintln!("SKIPPED: the test needs gcc");
        return None;
    };
    let dm = gcc.models()[0];
    let bin = gcc.build(name, &src, dm).expect("gcc compiles the program");
    let opts = FrontendOptions {
        data_model: dm,
        lbe: false,
        ..Default::default()
    };
    let cfa = prepare(
        &lower_source(&src, "p.c", &opts).expect("lowered").cfa,
        true,
    );
    let v = verify(&cfa, strategies().remove(0), 30.0);
    let seq = match &v {
        ProgramVerdict::False(_, t) if expanded => program_sequence(&cfa, t),
        ProgramVerdict::False(_, t) => Some(t.nondet.iter().map(|&x| x as u64).collect()),
        _ => None,
    };
    let replays = seq.is_some_and(|s| oracle::run(&bin, &s) == Some(oracle::EXIT_ERROR));
    let _ = std::fs::remove_dir_all(&dir);
    Some((v, replays))
}

/// The nondet values a FALSE verdict prints are the program's inputs: none for the return
/// variable of a called function or for a declaration without an initialiser (the compiled
/// program consumes nothing there), so they replay as they are.
#[test]
fn printed_nondet_values_skip_uninitialised_declarations() {
    for (name, body) in [
        (
            "return-variable",
            "  int r = f();\n  int y = __VERIFIER_nondet_int();\n  if (y == 7 && r == 1) reach_error();",
        ),
        (
            "uninitialised",
            "  int x;\n  x = 3;\n  int y = __VERIFIER_nondet_int();\n  if (y == 7 && x == 3) reach_error();",
        ),
    ] {
        let Some((v, replays)) = bmc_replays(name, body, false) else {
            return;
        };
        let ProgramVerdict::False(_, t) = &v else {
            panic!("{name}: no counterexample: {v:?}");
        };
        assert!(replays, "{name}: the printed nondet values {:?} do not replay", t.nondet);
    }
}

/// The nondet values printed for a counterexample that BMC found on the CFA with accelerated
/// loops are the program's, each jump expanded into its iterations: no iteration count among
/// them (it would give `y` the count), so they replay on the compiled program.
#[test]
fn accelerated_counterexample_nondet_values_replay_on_gcc() {
    let body = "  unsigned i = 0;\n  while (i < 100000) i++;\n\
                int y = __VERIFIER_nondet_int();\n  if (y == 7) reach_error();";
    let Some((v, replays)) = bmc_replays("accelerated-values", body, false) else {
        return;
    };
    let ProgramVerdict::False(_, t) = &v else {
        panic!("no counterexample: {v:?}");
    };
    assert!(t.accelerated.is_some(), "found without acceleration");
    assert!(
        replays,
        "the printed nondet values {:?} do not replay",
        t.nondet
    );
}

/// A loop of two iterations whose first takes one nondet value and whose second takes two
/// (the branch on `st` havocs it): acceleration jumps over the second iteration, and its
/// expansion takes the values the jump's proof gives the later iterations (each havoc the
/// value its variable has after the first), so the counterexample is FALSE with `x = 5` and
/// replays on gcc, not an internal error.
#[test]
fn accelerated_loop_whose_iterations_take_different_numbers_of_values() {
    let body = "  int x = 0, st = 1, it = 0;\n\
                while (it < 2) {\n    it++;\n    if (st == 0) { st = __VERIFIER_nondet_int(); }\n\
                x = __VERIFIER_nondet_int();\n    st = 0;\n  }\n  if (x == 5) reach_error();";
    let Some((v, replays)) = bmc_replays("accelerated-counts", body, true) else {
        return;
    };
    assert!(matches!(v, ProgramVerdict::False(..)), "{v:?}");
    assert!(replays, "the counterexample does not replay on gcc");
}
