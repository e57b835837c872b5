//! The trace oracle: every statement a printed counterexample shows must be one the program
//! executed, in order. For each FALSE fixture (every property expected violated under ILP32)
//! and for generated programs that bitmc answers FALSE, `bitmc verify` prints its trace; the
//! same program built by gcc with a line probe per statement (`trace_probe::probe`, in the gcc
//! build only) runs on the nondet values and uninitialised values the trace prints, and the
//! lines of the statements the trace shows (consecutive repetitions merged, the rest of a
//! statement after a call returned left out) must be the lines the binary passed: all of them
//! for `unreach-call`, where the binary must end in the error too, and their beginning for the
//! other properties (the binary goes on past an overflow, or traps). Under `CI=true` a missing
//! gcc (or `gcc -m32`) fails the test.

mod common;
mod random;
mod support;
mod trace_probe;

use bitmc::cfa::{DataModel, Property};
use std::path::{Path, PathBuf};
use std::process::Command;
use trace_probe::{printed, probe};

/// What one comparison found.
enum Case {
    /// The trace's lines are the binary's.
    Equal,
    /// bitmc did not answer FALSE (no trace to compare).
    NotFalse(String),
    /// The trace's lines are not the binary's.
    Mismatch(String),
}

/// The results of a run of comparisons.
#[derive(Default)]
struct Tally {
    equal: usize,
    not_false: Vec<String>,
    mismatches: Vec<String>,
}

impl Tally {
    fn add(&mut self, name: &str, c: Case) {
        match c {
            Case::Equal => self.equal += 1,
            Case::NotFalse(why) => self.not_false.push(format!("{name}: {why}")),
            Case::Mismatch(why) => self.mismatches.push(format!("{name}: {why}")),
        }
    }

    fn report(&self, what: &str) {
        eprintln!(
            "trace oracle ({what}): {} traces equal to gcc's executed lines, {} mismatches, {} runs without a FALSE verdict",
            self.equal,
            self.mismatches.len(),
            self.not_false.len()
        );
        for n in &self.not_false {
            eprintln!("  not FALSE: {n}");
        }
    }
}

/// The harness flags of a data model (`tests/common`), and whether gcc can build for it: a
/// failure under `CI=true` when it cannot.
fn gcc_builds(dm: DataModel, dir: &Path) -> bool {
    let src = dir.join("probe-main.c");
    std::fs::write(&src, "int main(void) { return 0; }\n").expect("file written");
    let ok = Command::new("gcc")
        .args(common::gcc_flags(dm))
        .arg("-Umain")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("probe-main"))
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        common::oracle_missing(&format!("gcc cannot build {dm} programs"));
    }
    ok
}

/// Runs `bitmc verify` on `source` for `property` and compares its trace with the probed
/// binary's run on the values the trace prints.
fn compare(source: &Path, property: Property, dm: DataModel, probed: &probe::Probed) -> Case {
    let file = source.to_str().expect("UTF-8 path");
    let want = format!("FALSE({property})");
    let r = common::run_for_false(
        file,
        |secs| {
            support::bitmc(&[
                "verify",
                file,
                "--property",
                property.name(),
                "--data-model",
                dm.name(),
                "--timeout",
                secs,
            ])
        },
        |r| r.last_line() == "UNKNOWN",
    );
    if r.last_line() != want {
        return Case::NotFalse(format!(
            "{} ({})",
            r.last_line(),
            r.stdout.lines().next().unwrap_or("")
        ));
    }
    let p = match printed::parse(&r.stdout, file) {
        Ok(p) => p,
        Err(e) => return Case::Mismatch(format!("{e}\n{}", r.stdout)),
    };
    if p.uninit_early > 0 {
        return Case::Mismatch(format!(
            "the trace reads {} uninitialised values before their declarations ran, which the probed build cannot give\n{}",
            p.uninit_early, r.stdout
        ));
    }
    let (lines, code) = probe::run(&probed.binary, &p.nondet, &p.uninit);
    let gcc = printed::collapsed(&lines);
    let trace = printed::collapsed(&p.lines);
    let agrees = match property {
        Property::UnreachCall => code == Some(common_exit_error()) && trace == gcc,
        _ => !trace.is_empty() && gcc.starts_with(&trace),
    };
    if agrees {
        Case::Equal
    } else {
        Case::Mismatch(format!(
            "trace lines {trace:?}\n gcc lines {gcc:?} (exit {code:?})\n{}",
            r.stdout
        ))
    }
}

/// The harness's exit code for a reached error.
fn common_exit_error() -> i32 {
    random::oracle::EXIT_ERROR
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bitmc-trace-oracle-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temporary directory");
    d
}

#[test]
fn traces_of_false_fixtures_show_the_lines_gcc_executes() {
    let dir = temp_dir("fixtures");
    if !gcc_builds(DataModel::Ilp32, &dir) {
        eprintln!("SKIPPED: gcc -m32 does not work");
        return;
    }
    let harness = common::harness();
    let mut jobs: Vec<(PathBuf, Vec<Property>)> = Vec::new();
    for f in common::fixture_files() {
        if f.components().any(|c| c.as_os_str() == "errors") {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("fixture readable");
        let h = common::header(&text);
        let false_props: Vec<Property> = Property::ALL
            .into_iter()
            .filter(|&p| h.verdict(p, DataModel::Ilp32) == Some(false))
            .collect();
        if !false_props.is_empty() {
            jobs.push((f, false_props));
        }
    }
    let cases: usize = jobs.iter().map(|(_, ps)| ps.len()).sum();
    // Each fixture's build in its own directory: two fixtures may share a file name.
    let results = common::parallel(&jobs, |k, (f, props)| {
        let name = f.display().to_string();
        let flags = common::gcc_flags(DataModel::Ilp32);
        match probe::build(f, &dir.join(k.to_string()), &flags, &harness) {
            Ok(probed) => Ok(props
                .iter()
                .map(|&p| {
                    let case = compare(f, p, DataModel::Ilp32, &probed);
                    (format!("{name} ({p})"), case)
                })
                .collect::<Vec<_>>()),
            Err(e) => Err(format!("{name}: {e}")),
        }
    });
    let mut tally = Tally::default();
    for r in results {
        match r {
            Ok(compared) => compared.into_iter().for_each(|(n, c)| tally.add(&n, c)),
            Err(e) => tally.mismatches.push(e),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    tally.report("FALSE fixtures");
    assert!(
        tally.mismatches.is_empty(),
        "{} of {cases} traces differ from gcc's run:\n{}",
        tally.mismatches.len(),
        tally.mismatches.join("\n\n")
    );
    // Every FALSE fixture property is compared but for those of `common::DEEP_VIOLATIONS`,
    // beyond the default portfolio within the limit (124 of 126 compared on 2 loaded cores
    // before the polynomial loops came).
    let other: Vec<&String> = (tally.not_false.iter())
        .filter(|n| !common::DEEP_VIOLATIONS.iter().any(|d| n.contains(d)))
        .collect();
    assert!(
        other.is_empty(),
        "{} FALSE fixture properties not answered FALSE: {other:?}",
        other.len()
    );
    assert!(cases >= 120, "only {cases} FALSE fixture properties found");
}

/// How many generated programs are verified.
const RANDOM_PROGRAMS: u64 = 40;

#[test]
fn traces_of_random_programs_show_the_lines_gcc_executes() {
    let dir = temp_dir("random");
    let models: Vec<DataModel> = [DataModel::Lp64, DataModel::Ilp32]
        .into_iter()
        .filter(|&dm| gcc_builds(dm, &dir))
        .collect();
    if models.is_empty() {
        eprintln!("SKIPPED: gcc does not work");
        return;
    }
    let harness = common::harness();
    let mut tally = Tally::default();
    for i in 0..RANDOM_PROGRAMS {
        let program = random::check::program(random::program::generate, i, &models);
        let src = dir.join(format!("p{i}.c"));
        std::fs::write(&src, &program.src).expect("program written");
        let name = format!("program {i} ({})", program.dm);
        let probed = match probe::build(&src, &dir, &common::gcc_flags(program.dm), &harness) {
            Ok(p) => p,
            Err(e) => {
                tally
                    .mismatches
                    .push(format!("{name}: {e}\n{}", program.src));
                continue;
            }
        };
        tally.add(
            &name,
            compare(&src, Property::UnreachCall, program.dm, &probed),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    tally.report("random programs");
    assert!(
        tally.mismatches.is_empty(),
        "{} traces differ from gcc's run:\n{}",
        tally.mismatches.len(),
        tally.mismatches.join("\n\n")
    );
    // Not vacuous: a good part of the generated programs reach the error.
    assert!(
        tally.equal as u64 >= RANDOM_PROGRAMS / 4,
        "only {} FALSE traces compared",
        tally.equal
    );
}
