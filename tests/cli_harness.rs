//! `bitmc verify --harness`: for every FALSE fixture property, in both data models (each where
//! the fixture's header gives it a FALSE verdict), the harness bitmc writes, compiled by gcc with the
//! program (`-m32` for ILP32, UBSan for overflow and division, UBSan and ASan for indices, as
//! `fixtures/harness/check.py` builds them), runs into the violation: an `unreach-call`
//! harness exits with the error code after naming the error function reached, the others end
//! in the sanitizer's report of the property's kind at the line bitmc names. Counterexamples
//! that read uninitialised locals (which a harness cannot set) are counted and listed apart.
//! Also: the divergence checks of the nondet functions, the note for uninitialised reads, no
//! file for a TRUE verdict, and the harness's literals as gcc reads them in both data models.
//!
//! gcc is needed (and `gcc -m32` for ILP32): without it a test skips that part with a message,
//! and fails under `CI=true`.

mod common;
mod support;

use bitmc::cfa::{DataModel, IntType, Property};
use bitmc::witness::harness::{literal, EXIT_DIVERGED, EXIT_ERROR, EXIT_EXHAUSTED};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The time limit of each `bitmc verify` run of the small programs written here, in seconds
/// (the fixtures' runs take `common::FALSE_RUN_SECS`).
const VERIFY_SECS: &str = "20";
/// The time limit of each run of a compiled harness.
const RUN_LIMIT: Duration = Duration::from_secs(10);

/// gcc's options for a program and its harness under a property and data model (the test's
/// own, after check.py's builds: `-fwrapv` except where signed overflow is the property).
fn gcc_options(p: Property, dm: DataModel) -> Vec<&'static str> {
    let mut o = vec!["-std=gnu11", "-O0", "-w"];
    if dm == DataModel::Ilp32 {
        o.push("-m32");
    }
    o.extend(match p {
        Property::UnreachCall => &["-fwrapv"][..],
        Property::NoOverflow => &["-fsanitize=undefined", "-fno-sanitize-recover=all"],
        Property::DivByZero => &[
            "-fwrapv",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
        ],
        Property::ValidIndex => &[
            "-g",
            "-fwrapv",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
        ],
    });
    o
}

/// Whether gcc builds and runs sanitized programs of a data model (a skip, or a failure under
/// `CI=true`, when it does not).
fn gcc_works(dm: DataModel, dir: &Path) -> bool {
    let src = dir.join(format!("probe-{dm}.c"));
    let exe = dir.join(format!("probe-{dm}"));
    std::fs::write(&src, "int main(void) { return 0; }\n").expect("file written");
    let ok = Command::new("gcc")
        .args(gcc_options(Property::ValidIndex, dm))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new(&exe).status().is_ok_and(|s| s.success());
    if !ok {
        common::oracle_missing(&format!(
            "gcc cannot build and run sanitized {dm} programs{}: that half of the harness test",
            if dm == DataModel::Ilp32 {
                " (gcc -m32, gcc-multilib)"
            } else {
                ""
            }
        ));
    }
    ok
}

/// A compiled program's run: its exit code (`None`: killed at the limit or by a signal) and
/// its stderr.
struct Ran {
    code: Option<i32>,
    stderr: String,
}

/// Builds `program` with `harness` and runs it.
fn build_and_run(
    program: &Path,
    harness: &Path,
    p: Property,
    dm: DataModel,
    exe: &Path,
) -> Result<Ran, String> {
    let out = Command::new("gcc")
        .args(gcc_options(p, dm))
        .arg(program)
        .arg(harness)
        .arg("-o")
        .arg(exe)
        .output()
        .map_err(|e| format!("gcc does not run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gcc fails on the program and its harness:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let err = exe.with_extension("stderr");
    let mut child = Command::new(exe)
        .env("UBSAN_OPTIONS", "print_stacktrace=0")
        .env("ASAN_OPTIONS", "detect_leaks=0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err).map_err(|e| e.to_string())?)
        .spawn()
        .map_err(|e| format!("the program does not start: {e}"))?;
    let status = common::wait_at_most(&mut child, RUN_LIMIT, Duration::from_millis(20));
    Ok(Ran {
        code: status.and_then(|s| s.code()),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
    })
}

/// The kind of a sanitizer report line (as check.py classifies them), with its line number in
/// `file` when the report gives it.
fn report(line: &str, file: &str) -> Option<(&'static str, Option<u32>)> {
    let kind = if line.contains("runtime error:") {
        if line.contains("signed integer overflow")
            || line.contains("negation of")
            || (line.contains("division of") && line.contains("cannot be represented"))
            || (line.contains("left shift of") && line.contains("cannot be represented"))
        {
            "overflow"
        } else if line.contains("division by zero") {
            "divzero"
        } else if line.contains("out of bounds")
            || line.contains("insufficient space for an object")
        {
            // The second: an access past the end of an object whose type gives no bound for
            // the index (a flexible array member), caught by the object-size check.
            "oob"
        } else {
            "other"
        }
    } else if line.contains("ERROR: AddressSanitizer") {
        if line.contains("buffer-overflow") || line.contains("buffer-underflow") {
            "oob"
        } else {
            "other"
        }
    } else {
        return None;
    };
    // UBSan: `FILE:LINE:COL: runtime error: …`.
    let at = line
        .strip_prefix(&format!("{file}:"))
        .and_then(|r| r.split(':').next())
        .and_then(|l| l.parse().ok());
    Some((kind, at))
}

/// The line of ASan's first stack frame in `file` (`#0 0x… in main FILE:LINE`).
fn asan_line(stderr: &str, file: &str) -> Option<u32> {
    stderr
        .lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .find_map(|l| l.split_once(&format!("{file}:")))
        .and_then(|(_, r)| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|l| l.parse().ok())
}

/// Whether a run ended in the violation of `p` at `line` (bitmc's), or what it did instead.
fn reached(ran: &Ran, p: Property, file: &str, line: u32) -> Result<(), String> {
    let what = || format!("exit {:?}, stderr:\n{}", ran.code, ran.stderr);
    if p == Property::UnreachCall {
        let named = ran
            .stderr
            .lines()
            .any(|l| l.starts_with("bitmc harness: ") && l.ends_with(" reached"));
        return if ran.code == Some(EXIT_ERROR) && named {
            Ok(())
        } else {
            Err(format!("no error function reached: {}", what()))
        };
    }
    let want = match p {
        Property::NoOverflow => "overflow",
        Property::DivByZero => "divzero",
        _ => "oob",
    };
    let Some((kind, at)) = ran.stderr.lines().find_map(|l| report(l, file)) else {
        return Err(format!("no sanitizer report: {}", what()));
    };
    let at = at.or_else(|| asan_line(&ran.stderr, file));
    if kind != want || at != Some(line) || ran.code != Some(1) {
        return Err(format!(
            "the first report is of {kind} at line {at:?}, not of {want} at line {line}: {}",
            what()
        ));
    }
    Ok(())
}

/// One FALSE fixture property in one data model.
struct Job {
    file: PathBuf,
    property: Property,
    dm: DataModel,
}

/// What one job found.
enum Outcome {
    /// The harness runs into the violation.
    Reached,
    /// The counterexample reads uninitialised locals (the values, and whether the run reached
    /// the violation all the same).
    Uninitialised(String, bool),
    /// bitmc did not answer FALSE.
    NotFalse(String),
    Failed(String),
}

fn run_job(job: &Job, k: usize, dir: &Path) -> Outcome {
    let file = job.file.display().to_string();
    let harness = dir.join(format!("h{k}.c"));
    let want = format!("FALSE({})", job.property);
    let r = common::run_for_false(
        &file,
        |secs| {
            support::bitmc(&[
                "verify",
                &file,
                "--property",
                job.property.name(),
                "--data-model",
                job.dm.name(),
                "--timeout",
                secs,
                "--harness",
                harness.to_str().expect("UTF-8 path"),
            ])
        },
        |r| r.last_line() == "UNKNOWN",
    );
    if r.last_line() != want {
        return Outcome::NotFalse(r.stdout.lines().next().unwrap_or("").to_string());
    }
    let Ok(text) = std::fs::read_to_string(&harness) else {
        return Outcome::Failed(format!("no harness written: {}", r.stderr));
    };
    // The command in the harness's comment builds it as this test does.
    let stated = text
        .lines()
        .skip_while(|l| !l.contains("Build and run"))
        .nth(1)
        .unwrap_or("");
    let own = gcc_options(job.property, job.dm);
    if let Some(o) = own.iter().skip(3).find(|o| !stated.contains(*o)) {
        return Outcome::Failed(format!("the stated command `{stated}` lacks {o}"));
    }
    if job.dm == DataModel::Lp64 && stated.contains("-m32") {
        return Outcome::Failed(format!("the stated command `{stated}` builds for ILP32"));
    }
    // Where bitmc says the property fails.
    let suffix = format!(" ({})", job.property);
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains(": error: ") && l.ends_with(&suffix))
        .and_then(|l| l.strip_prefix(&format!("{file}:")))
        .and_then(|l| l.split(':').next())
        .and_then(|l| l.parse::<u32>().ok());
    let Some(line) = line else {
        return Outcome::Failed(format!("no error line in the output:\n{}", r.stdout));
    };
    let ran = match build_and_run(
        &job.file,
        &harness,
        job.property,
        job.dm,
        &dir.join(format!("h{k}")),
    ) {
        Ok(ran) => ran,
        Err(e) => return Outcome::Failed(e),
    };
    let result = reached(&ran, job.property, &file, line);
    if text.contains("NOT A REPRODUCTION") {
        let values = r
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("warning: the counterexample reads uninitialised locals, which a harness cannot set: "))
            .unwrap_or("(no warning on stderr)")
            .to_string();
        return Outcome::Uninitialised(values, result.is_ok());
    }
    match result {
        Ok(()) => Outcome::Reached,
        Err(e) => Outcome::Failed(e),
    }
}

#[test]
fn harnesses_of_false_fixtures_reach_the_violation() {
    let start = Instant::now();
    let dir = support::temp_dir("cli-harness-fixtures");
    let models: Vec<DataModel> = [DataModel::Ilp32, DataModel::Lp64]
        .into_iter()
        .filter(|&dm| gcc_works(dm, &dir))
        .collect();
    let mut jobs = Vec::new();
    for f in common::fixture_files() {
        let text = std::fs::read_to_string(&f).expect("fixture readable");
        let h = common::header(&text);
        if h.unsupported {
            continue;
        }
        for &dm in &models {
            for p in Property::ALL {
                if h.verdict(p, dm) == Some(false) && !h.ub_dependent(p, dm) {
                    jobs.push(Job {
                        file: f.clone(),
                        property: p,
                        dm,
                    });
                }
            }
        }
    }
    let results = common::parallel(&jobs, |k, job| {
        let name = format!("{} ({}, {})", job.file.display(), job.property, job.dm);
        (name, run_job(job, k, &dir))
    });
    let _ = std::fs::remove_dir_all(&dir);
    let (mut reached, mut uninit, mut not_false, mut failed) = (0, vec![], vec![], vec![]);
    for (name, o) in results {
        match o {
            Outcome::Reached => reached += 1,
            Outcome::Uninitialised(v, ok) => uninit.push(format!(
                "{name}: {v} (the run {} the violation)",
                if ok { "reached" } else { "did not reach" }
            )),
            Outcome::NotFalse(why) => not_false.push(format!("{name}: {why}")),
            Outcome::Failed(why) => failed.push(format!("{name}: {why}")),
        }
    }
    let ilp32 = jobs.iter().filter(|j| j.dm == DataModel::Ilp32).count();
    eprintln!(
        "harnesses: {} FALSE fixture properties ({ilp32} ILP32, {} LP64): {reached} reach the violation, {} read uninitialised locals, {} not answered FALSE, {} failed ({:.0} s)",
        jobs.len(),
        jobs.len() - ilp32,
        uninit.len(),
        not_false.len(),
        failed.len(),
        start.elapsed().as_secs_f64()
    );
    for u in &uninit {
        eprintln!("  reads uninitialised locals: {u}");
    }
    for n in &not_false {
        eprintln!("  not FALSE: {n}");
    }
    assert!(
        failed.is_empty(),
        "{} of {} harnesses do not reach the violation:\n{}",
        failed.len(),
        jobs.len(),
        failed.join("\n\n")
    );
    for dm in &models {
        let n = jobs.iter().filter(|j| j.dm == *dm).count();
        assert!(n >= 120, "only {n} {dm} FALSE fixture properties");
    }
    // As in trace_oracle.rs: the fixtures whose violation lies thousands of iterations deep
    // (or a hundred iterations of products) may be beyond the portfolio within the limit on
    // loaded cores; every other FALSE property must be answered FALSE.
    let other: Vec<&String> = (not_false.iter())
        .filter(|n| !common::DEEP_VIOLATIONS.iter().any(|d| n.contains(d)))
        .collect();
    assert!(
        other.is_empty(),
        "{} FALSE fixture properties not answered FALSE: {other:?}",
        other.len()
    );
}

/// Writes a program, runs `bitmc verify --harness` on it; the harness's text and bitmc's run.
fn harness_of(dir: &Path, name: &str, program: &str, extra: &[&str]) -> (String, support::Run) {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, program).expect("file written");
    let h = dir.join(format!("{name}-harness.c"));
    let mut args = vec![
        "verify",
        src.to_str().expect("UTF-8 path"),
        "--timeout",
        VERIFY_SECS,
        "--harness",
        h.to_str().expect("UTF-8 path"),
    ];
    args.extend(extra);
    let run = support::bitmc(&args);
    (std::fs::read_to_string(&h).unwrap_or_default(), run)
}

#[test]
fn a_program_that_diverges_from_the_counterexample_is_told_so() {
    let dir = support::temp_dir("cli-harness-diverge");
    if !gcc_works(DataModel::Lp64, &dir) {
        return;
    }
    let program = "extern void reach_error(void);\n\
                   extern int __VERIFIER_nondet_int(void);\n\
                   extern unsigned char __VERIFIER_nondet_uchar(void);\n\
                   int main(void) {\n\
                   \x20 int a = __VERIFIER_nondet_int();\n\
                   \x20 unsigned char b = __VERIFIER_nondet_uchar();\n\
                   \x20 if (a == -7 && b == 200) reach_error();\n\
                   \x20 return 0;\n\
                   }\n";
    let (_, run) = harness_of(&dir, "p", program, &["--data-model", "lp64"]);
    assert_eq!(run.last_line(), "FALSE(unreach-call)", "{}", run.stdout);
    let h = dir.join("p-harness.c");
    let exe = dir.join("p");
    let ran = build_and_run(
        &dir.join("p.c"),
        &h,
        Property::UnreachCall,
        DataModel::Lp64,
        &exe,
    )
    .expect("built");
    assert_eq!(ran.code, Some(EXIT_ERROR), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("reach_error() reached"),
        "{}",
        ran.stderr
    );
    // The same harness with programs that call in another order, or once more: each exits
    // with its code and says why.
    let diverges = |name: &str, source: &str, code: i32, says: &str| {
        assert_ne!(source, program);
        let src = dir.join(format!("{name}.c"));
        std::fs::write(&src, source).expect("file written");
        let ran =
            build_and_run(&src, &h, Property::UnreachCall, DataModel::Lp64, &exe).expect("built");
        assert_eq!(ran.code, Some(code), "{}", ran.stderr);
        assert!(ran.stderr.contains(says), "{}", ran.stderr);
    };
    diverges(
        "q",
        &program.replace(
            "int a = __VERIFIER_nondet_int();\n  unsigned char b = __VERIFIER_nondet_uchar();",
            "unsigned char b = __VERIFIER_nondet_uchar();\n  int a = __VERIFIER_nondet_int();",
        ),
        EXIT_DIVERGED,
        "nondet call 1 is of __VERIFIER_nondet_uchar, but the counterexample's call 1 is of __VERIFIER_nondet_int",
    );
    diverges(
        "r",
        &program
            .replace("return 0;", "return __VERIFIER_nondet_int();")
            .replace("reach_error();", "a = 0;"),
        EXIT_EXHAUSTED,
        "nondet call 3 (__VERIFIER_nondet_int) is one more than the counterexample's 2",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn uninitialised_reads_are_stated_not_reproduced() {
    let dir = support::temp_dir("cli-harness-uninit");
    let program = "extern void reach_error(void);\n\
                   int main(void) {\n\
                   \x20 int x;\n\
                   \x20 if (x == 5) reach_error();\n\
                   \x20 return 0;\n\
                   }\n";
    let (text, run) = harness_of(&dir, "u", program, &[]);
    assert_eq!(run.last_line(), "FALSE(unreach-call)", "{}", run.stdout);
    assert!(text.contains("NOT A REPRODUCTION"), "{text}");
    let comment = text.split("*/").next().unwrap_or("");
    assert!(comment.contains("x = 5 (int, declared at "), "{comment}");
    assert!(
        run.stderr.contains(
            "warning: the counterexample reads uninitialised locals, which a harness cannot set: x = 5 (int"
        ),
        "{}",
        run.stderr
    );
    // Written without an uninitialised read, the same program's harness claims the violation.
    let (text, run) = harness_of(&dir, "v", &program.replace("int x;", "int x = 5;"), &[]);
    assert_eq!(run.last_line(), "FALSE(unreach-call)", "{}", run.stdout);
    assert!(!text.contains("NOT A REPRODUCTION"), "{text}");
    assert!(text.contains("The run reaches the violation"), "{text}");
    assert!(!run.stderr.contains("uninitialised"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_harness_for_a_true_verdict() {
    let dir = support::temp_dir("cli-harness-true");
    let program = "extern void reach_error(void);\n\
                   extern int __VERIFIER_nondet_int(void);\n\
                   int main(void) {\n\
                   \x20 int x = __VERIFIER_nondet_int();\n\
                   \x20 if (x != x) reach_error();\n\
                   \x20 return 0;\n\
                   }\n";
    let (text, run) = harness_of(&dir, "t", program, &[]);
    assert_eq!(run.last_line(), "TRUE", "{}", run.stdout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(text.is_empty() && !dir.join("t-harness.c").exists());
    assert!(
        run.stderr.contains("note: no harness for a TRUE verdict"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The harness's literals, as gcc reads them in each data model: of the type named, with the
/// value given by `<limits.h>` or an expression of other operators.
#[test]
fn literals_mean_their_values_for_gcc() {
    let dir = support::temp_dir("cli-harness-literals");
    let int = |width, signed| IntType { width, signed };
    for dm in [DataModel::Ilp32, DataModel::Lp64] {
        if !gcc_works(dm, &dir) {
            continue;
        }
        let mut cases: Vec<(u128, IntType, &str, &str)> = vec![
            (0x8000_0000, int(32, true), "int", "INT_MIN"),
            (0xffff_ffff, int(32, true), "int", "-1"),
            (0x7fff_ffff, int(32, true), "int", "INT_MAX"),
            (0xffff_ffff, int(32, false), "unsigned int", "UINT_MAX"),
            (1, int(1, false), "_Bool", "1"),
            (0x80, int(8, true), "signed char", "SCHAR_MIN"),
            (0xff, int(8, false), "unsigned char", "UCHAR_MAX"),
            (0x8000, int(16, true), "short", "SHRT_MIN"),
            (0xffff, int(16, false), "unsigned short", "USHRT_MAX"),
            (1 << 63, int(64, true), "long long", "LLONG_MIN"),
            (
                u128::from(u64::MAX),
                int(64, false),
                "unsigned long long",
                "ULLONG_MAX",
            ),
            (u128::from(u64::MAX), int(64, true), "long long", "-1"),
        ];
        if dm == DataModel::Lp64 {
            for c in cases.iter_mut().filter(|c| c.1.width == 64) {
                c.2 = if c.1.signed { "long" } else { "unsigned long" };
            }
            cases.extend([
                (
                    u128::MAX,
                    int(128, false),
                    "unsigned __int128",
                    "~(unsigned __int128)0",
                ),
                (u128::MAX, int(128, true), "__int128", "-1"),
                (
                    1 << 127,
                    int(128, true),
                    "__int128",
                    "(-(__int128)(~(unsigned __int128)0 >> 1) - 1)",
                ),
                (
                    u128::from(u64::MAX),
                    int(128, true),
                    "__int128",
                    "(__int128)ULLONG_MAX",
                ),
                (
                    (3u128 << 64) | 5,
                    int(128, false),
                    "unsigned __int128",
                    "((unsigned __int128)3 * ((unsigned __int128)1 << 64) + 5)",
                ),
            ]);
        }
        let mut c = String::from("#include <limits.h>\n");
        for (i, (v, ty, name, want)) in cases.iter().enumerate() {
            let lit = literal(*v, *ty, dm);
            c += &format!(
                "_Static_assert(__builtin_types_compatible_p(__typeof__({lit}), {name}), \"case {i}: {lit} is not of type {name}\");\n\
                 _Static_assert({lit} == ({name})({want}), \"case {i}: {lit} is not {want}\");\n"
            );
        }
        let src = dir.join(format!("literals-{dm}.c"));
        std::fs::write(&src, c).expect("file written");
        let mut cmd = Command::new("gcc");
        cmd.args(["-std=gnu11", "-fsyntax-only"]);
        if dm == DataModel::Ilp32 {
            cmd.arg("-m32");
        }
        match cmd.arg(&src).output() {
            Ok(o) if o.status.success() => {}
            Ok(o) => panic!(
                "gcc ({dm}) rejects the literals:\n{}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => common::oracle_missing(&format!("gcc does not run: {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
