//! `bitmc verify` on several properties at once: every property of a task that bitmc checks
//! (or those `--property` lists), each with its own verdict and counterexample, a result list
//! naming the skipped ones, and the run's verdict by SV-COMP's rule (the first violated
//! property, else UNKNOWN if any is undecided, else TRUE); with `--timeout`, each property gets
//! its share of the time, so an undecided first property does not starve the next.

mod support;

use std::path::{Path, PathBuf};
use support::{bitmc, temp_dir, Run};

const HEADER: &str = "extern void reach_error(void);\n\
                      extern int __VERIFIER_nondet_int(void);\n\
                      extern unsigned __VERIFIER_nondet_uint(void);\n";

/// A task of `body` listing `properties` (file names under `../properties/`) and termination.
fn task(name: &str, body: &str, properties: &[&str]) -> PathBuf {
    let dir = temp_dir(&format!("cli-properties-{name}"));
    std::fs::write(dir.join("prog.c"), format!("{HEADER}{body}")).expect("program written");
    let mut yml = String::from("format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n");
    for p in properties.iter().chain(&["termination"]) {
        yml += &format!("  - property_file: ../properties/{p}.prp\n");
    }
    yml += "options:\n  language: C\n  data_model: ILP32\n";
    let t = dir.join("task.yml");
    std::fs::write(&t, yml).expect("task written");
    t
}

fn verify(file: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["verify", file.to_str().expect("UTF-8 path")];
    args.extend_from_slice(extra);
    bitmc(&args)
}

/// The lines of the result list, without their indentation.
fn results(r: &Run) -> Vec<String> {
    r.stdout
        .lines()
        .skip_while(|l| *l != "results:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

/// Asserts the exit code, the verdict line and the first entries of the result list.
#[track_caller]
fn expect(r: &Run, code: i32, verdict: &str, listed: &[&str]) {
    assert_eq!(
        (r.code, r.last_line()),
        (code, verdict),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    let got = results(r);
    assert!(
        got.len() >= listed.len() && got[..listed.len()] == *listed,
        "result list {got:?}, expected {listed:?} first\n{}",
        r.stdout
    );
}

/// `x + 1` overflows at INT_MAX; the error needs x < -3 on the path where y is 2.
const BOTH_FAIL: &str = "int main(void) {\n\
                         int x = __VERIFIER_nondet_int();\n\
                         int y;\n\
                         if (x > 5) y = 1; else y = 2;\n\
                         if (y == 2 && x < -3) reach_error();\n\
                         return x + 1;\n}\n";

/// The error is unreachable; `x * 2` overflows.
const OVERFLOW_ONLY: &str = "int main(void) {\n\
                             int x = __VERIFIER_nondet_int();\n\
                             if (x != x) reach_error();\n\
                             return x * 2;\n}\n";

/// No signed arithmetic, and an even number is never odd.
const BOTH_HOLD: &str = "int main(void) {\n\
                         unsigned x = __VERIFIER_nondet_uint() % 100;\n\
                         if ((2 * x) % 2 != 0) reach_error();\n\
                         return 0;\n}\n";

/// Both properties hold, and the program never ends and never repeats a state (so BMC cannot
/// prove them).
const NEVER_ENDS: &str = "int main(void) {\n\
                          unsigned x = 1;\n\
                          while (1) { x += 2; if (x % 2 == 0) reach_error(); }\n\
                          return 0;\n}\n";

#[test]
fn every_property_of_a_task_is_checked() {
    let t = task("both", BOTH_FAIL, &["no-overflow", "unreach-call"]);
    let r = verify(&t, &[]);
    // unreach-call first, then the task's order; the skipped property named.
    expect(
        &r,
        10,
        "FALSE(unreach-call)",
        &[
            "unreach-call: FALSE(unreach-call)",
            "no-overflow: FALSE(no-overflow)",
            "termination: skipped (bitmc does not check it)",
        ],
    );
    assert_eq!(results(&r).len(), 3, "{}", r.stdout);
    // Each violation with its own location.
    assert!(
        r.stdout
            .contains("prog.c:8:23: error: reach_error() is reachable (unreach-call)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("prog.c:9:8: error: signed overflow in 'x + 1' (no-overflow)"),
        "{}",
        r.stdout
    );
}

#[test]
fn the_verdict_is_the_first_violated_property() {
    let t = task("overflow", OVERFLOW_ONLY, &["unreach-call", "no-overflow"]);
    let r = verify(&t, &[]);
    expect(
        &r,
        10,
        "FALSE(no-overflow)",
        &["unreach-call: TRUE", "no-overflow: FALSE(no-overflow)"],
    );
    let t = task("hold", BOTH_HOLD, &["unreach-call", "no-overflow"]);
    let r = verify(&t, &[]);
    expect(&r, 0, "TRUE", &["unreach-call: TRUE", "no-overflow: TRUE"]);
    // An undecided property makes the run UNKNOWN unless another is violated.
    let t = task("never", NEVER_ENDS, &["unreach-call", "no-overflow"]);
    let r = verify(&t, &["--engine", "bmc", "--max-depth", "2"]);
    expect(&r, 20, "UNKNOWN", &[]);
}

#[test]
fn property_lists_on_the_command_line() {
    let dir = temp_dir("cli-properties-list");
    let f = dir.join("p.c");
    std::fs::write(&f, format!("{HEADER}{OVERFLOW_ONLY}")).unwrap();
    let r = verify(&f, &["--property", "div-by-zero,no-overflow,div-by-zero"]);
    expect(
        &r,
        10,
        "FALSE(no-overflow)",
        &["div-by-zero: TRUE", "no-overflow: FALSE(no-overflow)"],
    );
    assert_eq!(results(&r).len(), 2, "{}", r.stdout);
    // One property: no result list, as before.
    let r = verify(&f, &["--property", "no-overflow"]);
    assert!(!r.stdout.contains("results:"), "{}", r.stdout);
    let r = verify(&f, &["--property", "no-overflow,termination"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("unknown property `termination`"),
        "{}",
        r.stderr
    );
    // A command-line property replaces the task's: nothing is listed as skipped.
    let t = task("named", OVERFLOW_ONLY, &["unreach-call", "no-overflow"]);
    let r = verify(&t, &["--property", "unreach-call"]);
    expect(&r, 0, "TRUE", &[]);
    assert!(!r.stdout.contains("results:"), "{}", r.stdout);
}

/// An affine map applied a million times: reaching the error needs a run of a million steps,
/// which no engine finds in seconds, and no engine proves it unreachable (it is reachable).
const DEEP: &str = "int main(void) {\n\
                    unsigned x = __VERIFIER_nondet_uint();\n\
                    for (unsigned i = 0; i < 1000000u; i++) x = x * 1103515245u + 12345u;\n\
                    if (x == 0x12345678u) reach_error();\n\
                    return 0;\n}\n";

#[test]
fn each_property_gets_its_share_of_the_time() {
    let t = task("deep", DEEP, &["unreach-call", "no-overflow"]);
    let started = std::time::Instant::now();
    let r = verify(&t, &["--timeout", "6"]);
    let secs = started.elapsed().as_secs_f64();
    expect(
        &r,
        20,
        "UNKNOWN",
        &["unreach-call: UNKNOWN", "no-overflow: TRUE"],
    );
    assert!(
        r.stdout.contains("this property's share of the time limit"),
        "{}",
        r.stdout
    );
    assert!(secs < 6.0 + 4.0, "the run took {secs:.1} s");
}
