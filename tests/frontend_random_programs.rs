//! Differential tests on generated programs (generators and checks in `tests/random/`).
//!
//! - Straight-line integer programs (every integer type, every operator, casts, literals of
//!   every form) compiled with gcc for LP64 and ILP32 and run on random nondet sequences: the
//!   CFA interpreter must reach the same outcome.
//! - Programs with pointers, arrays, casts and state machines, checked against gcc and across
//!   the engines (see `random::check`). The short run checks 30 programs; set
//!   `BITMC_RANDOM_PROGRAMS=N` for another number (`BITMC_RANDOM_FIRST` for the first index,
//!   `BITMC_RANDOM_SECS` for each engine run's time limit, `BITMC_RANDOM_MINUTES` to start no
//!   program after that many minutes, `BITMC_RANDOM_KEEP=DIR` to keep the programs), or run the ignored
//!   `random_programs_long` for 10,000.

mod common;
mod random;

use bitmc::cfa::{run_with, DataModel, Outcome, RunOptions};
use bitmc::frontend::{lower_source, FrontendOptions};
use common::Rng;
use random::check::{check_programs_of, Config, Generator};
use random::expr::Gen;
use random::oracle::{self, Gcc};

const STRAIGHT_LINE_PROGRAMS: u64 = 40;
const RUNS: usize = 25;

fn temp_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bitmc-{name}-{}", std::process::id()))
}

#[test]
fn straight_line_programs_agree_with_gcc() {
    let dir = temp_dir("straight-line");
    let Some(gcc) = Gcc::new(&dir) else {
        common::oracle_missing("the differential test needs gcc");
        return;
    };
    let mut failures = Vec::new();
    let mut compared = 0;
    for p in 0..STRAIGHT_LINE_PROGRAMS {
        let mut g = Gen::new(0xC0FFEE + p * 7919, DataModel::Ilp32);
        let (src, inputs) = g.straight_line_program();
        for dm in gcc.models() {
            let name = format!("p{p}-{}", dm.name());
            let bin = match gcc.build(&name, &src, dm) {
                Ok(b) => b,
                Err(e) => {
                    failures.push(format!("gcc rejects program {p}: {e}\n{src}"));
                    continue;
                }
            };
            let opts = FrontendOptions {
                data_model: dm,
                ..Default::default()
            };
            let cfa = match lower_source(&src, "p.c", &opts) {
                Ok(l) => l.cfa,
                Err(e) => {
                    failures.push(format!("program {p}: {e}\n{src}"));
                    continue;
                }
            };
            let mut rng = Rng(p + 1, Vec::new());
            for _ in 0..RUNS {
                let seq: Vec<u64> = (0..inputs).map(|_| rng.interesting()).collect();
                let vals: Vec<u128> = seq.iter().map(|&v| u128::from(v)).collect();
                let ro = RunOptions {
                    step_limit: 100_000,
                    uninit_zero: true,
                    record: false,
                };
                let want = match run_with(&cfa, &vals, ro).0 {
                    Outcome::Error { .. } => oracle::EXIT_ERROR,
                    Outcome::Exit => oracle::EXIT_NORMAL,
                    o => {
                        failures.push(format!("program {p} ({dm}): unexpected {o:?}"));
                        break;
                    }
                };
                let got = oracle::run(&bin, &seq);
                compared += 1;
                if got != Some(want) {
                    failures.push(format!(
                        "program {p} ({dm}) on {seq:?}: gcc {got:?}, interpreter {want}\n{src}"
                    ));
                    break;
                }
            }
            gcc.clean(&name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "straight-line programs: {STRAIGHT_LINE_PROGRAMS} programs, {compared} executions compared"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        compared >= STRAIGHT_LINE_PROGRAMS as usize * RUNS,
        "only {compared} executions compared"
    );
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

/// Checks `count` programs (unless `BITMC_RANDOM_PROGRAMS` says otherwise) and asserts that
/// nothing disagreed and that enough was compared.
fn random_programs(name: &str, gen: Generator, count: u64) {
    let count = env_u64("BITMC_RANDOM_PROGRAMS").unwrap_or(count);
    let first = env_u64("BITMC_RANDOM_FIRST").unwrap_or(0);
    let engine_secs = std::env::var("BITMC_RANDOM_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    // Each generator builds its programs in a directory of its own (tests run in parallel).
    let dir = temp_dir(name);
    let Some(gcc) = Gcc::new(&dir) else {
        common::oracle_missing("the random-program test needs gcc");
        return;
    };
    let cfg = Config {
        runs: 20,
        engine_secs,
        sequence: 48,
        deadline: env_u64("BITMC_RANDOM_MINUTES")
            .map(|m| std::time::Instant::now() + std::time::Duration::from_secs(m * 60)),
    };
    let start = std::time::Instant::now();
    let f = check_programs_of(gen, first, count, &gcc, &cfg);
    let _ = std::fs::remove_dir_all(&dir);
    f.print();
    eprintln!("  {:.1} minutes", start.elapsed().as_secs_f64() / 60.0);
    assert!(
        f.failures.is_empty(),
        "{} failures:\n{}",
        f.failures.len(),
        f.failures.join("\n")
    );
    assert_eq!(f.unsupported, 0, "the generator wrote unsupported C");
    if (f.attempted as u64) < count {
        eprintln!(
            "  stopped by BITMC_RANDOM_MINUTES after {} of {count} programs",
            f.attempted
        );
    } else {
        assert_eq!(f.attempted as u64, count);
    }
    assert_eq!(f.programs, f.attempted, "not every program was checked");
    let count = f.attempted as u64;
    assert!(
        f.gcc_runs >= f.programs * cfg.runs,
        "only {} gcc runs",
        f.gcc_runs
    );
    // Not vacuous: some programs reach the error (and gcc confirms the counterexamples), some
    // are proved safe, and gcc runs reach the error too.
    let tenth = (count as usize / 10).max(1);
    assert!(
        f.programs_false >= tenth,
        "only {} programs FALSE",
        f.programs_false
    );
    assert!(
        f.programs_true >= tenth,
        "only {} programs TRUE",
        f.programs_true
    );
    assert!(
        f.false_confirmed >= tenth,
        "only {} FALSE verdicts confirmed",
        f.false_confirmed
    );
    assert!(f.programs_gcc_reaching >= 1, "no gcc run reached the error");
    // What the command line prints (the trace's nondet values as they are) replays on gcc.
    assert_eq!(
        f.raw_not_replaying, 0,
        "FALSE verdicts whose printed nondet values do not make gcc reach the error"
    );
    // Each engine decides what it can (measured on 30 programs at 2 s a run, beside other
    // tests on 2 cores: UNKNOWN for bmc 10 (the TRUE programs, whose runs do not all end), k-induction
    // 4, PDR 2, IC3CFA 0, the portfolio 4; every program decided by some engine). euf's full
    // mode, which abstracts every addition and comparison, needs many refinements and is
    // mostly interrupted at 2 s: 10, 14 and 16 of 30 UNKNOWN in the three generators.
    let runs = |e: &str, k: &str| f.verdicts.get(&(e.to_string(), k)).copied().unwrap_or(0);
    for (engine, share) in [
        ("kind:cadical", 0.25),
        ("pdr:cadical", 0.2),
        ("ic3cfa:cadical", 0.1),
        ("euf:cadical", 0.2),
        ("euf:cadical:full", 0.7),
        ("portfolio", 0.25),
    ] {
        let unknown = runs(engine, "UNKNOWN");
        assert!(
            unknown as f64 <= share * f.programs as f64,
            "{engine}: {unknown} of {} programs UNKNOWN (at most {:.0} % allowed)",
            f.programs,
            share * 100.0
        );
    }
    assert!(
        runs("bmc:cadical", "FALSE") * 10 >= f.programs_false * 9,
        "bmc found {} of {} violations",
        runs("bmc:cadical", "FALSE"),
        f.programs_false
    );
    assert!(
        f.programs_undecided * 20 <= f.programs,
        "{} programs decided by no engine",
        f.programs_undecided
    );
}

#[test]
fn random_programs_checked_against_gcc_and_across_engines() {
    random_programs("random", random::program::generate, 30);
}

/// The long run: 10,000 programs (about N hours on 2 cores).
#[test]
#[ignore]
fn random_programs_long() {
    random_programs("random", random::program::generate, 10_000);
}

/// Programs with brace elision, builtins, library calls and side-effecting arguments
/// (`random::gnu`), checked the same way.
#[test]
fn gnu_shaped_programs_checked_against_gcc_and_across_engines() {
    random_programs("random-gnu", random::gnu::generate, 30);
}

/// The long run of the programs of `random::gnu`: 3,000 programs.
#[test]
#[ignore]
fn gnu_shaped_programs_long() {
    random_programs("random-gnu", random::gnu::generate, 3_000);
}

/// Programs with structures, arrays of structures, copies and pointers to structures
/// (`random::structs`), checked the same way.
#[test]
fn struct_programs_checked_against_gcc_and_across_engines() {
    random_programs("random-structs", random::structs::generate, 30);
}

/// Programs with general pointers (`random::walks`), checked the same way.
#[test]
fn pointer_walk_programs_checked_against_gcc_and_across_engines() {
    random_programs("random-walks", random::walks::generate, 30);
}

/// Programs with byte views and `memset`/`memcpy`/`memmove`/`memcmp` (`random::bytes`), checked the
/// same way.
#[test]
fn byte_view_programs_checked_against_gcc_and_across_engines() {
    random_programs("random-bytes", random::bytes::generate, 30);
}

/// The long run of the programs of `random::bytes`: 3,000 programs.
#[test]
#[ignore]
fn byte_view_programs_long() {
    random_programs("random-bytes", random::bytes::generate, 3_000);
}

/// The long run of the programs of `random::walks`: 3,000 programs.
#[test]
#[ignore]
fn pointer_walk_programs_long() {
    random_programs("random-walks", random::walks::generate, 3_000);
}

/// The long run of the programs of `random::structs`: 3,000 programs.
#[test]
#[ignore]
fn struct_programs_long() {
    random_programs("random-structs", random::structs::generate, 3_000);
}
