//! `bitmc verify` through the command line: every exit code with the last line that goes with
//! it (0 `TRUE`, 10 `FALSE(p)`, 20 `UNKNOWN`, 1 input error, 2 usage error, 3 internal error);
//! an internal error exits with 3 in either phase of a run (the error location with the
//! UNKNOWN sinks, then the error location alone), whatever the reason text says; and a run
//! under a memory limit ends with `UNKNOWN (memory)`, not a signal; one ended by `SIGTERM` with
//! `UNKNOWN (interrupted)` and its statistics.

mod support;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{bitmc, temp_dir, Run};

const TRUE: i32 = 0;
const FALSE: i32 = 10;
const UNKNOWN: i32 = 20;
const INPUT_ERROR: i32 = 1;
const USAGE_ERROR: i32 = 2;
const INTERNAL_ERROR: i32 = 3;

const HEADER: &str = "extern void reach_error(void);\n\
                      extern unsigned __VERIFIER_nondet_uint(void);\n\
                      extern int __VERIFIER_nondet_int(void);\n";

/// A program whose error is unreachable (an even number is never odd).
const SAFE: &str = "int main(void) {\n\
                    unsigned x = __VERIFIER_nondet_uint() % 100;\n\
                    unsigned y = 2 * x;\n\
                    if (y % 2 != 0) reach_error();\n\
                    return 0;\n}\n";

/// A program whose error is reachable (x = 42).
const UNSAFE: &str = "int main(void) {\n\
                      unsigned x = __VERIFIER_nondet_uint();\n\
                      if (x == 42) reach_error();\n\
                      return 0;\n}\n";

/// A loop that never reaches the error, however long it runs.
const SAFE_LOOP: &str = "int main(void) {\n\
                         unsigned i = 0;\n\
                         while (__VERIFIER_nondet_int()) { i += 2; }\n\
                         if (i % 2 != 0) reach_error();\n\
                         return 0;\n}\n";

/// An out-of-bounds read (i = 2) is reachable, the error is not: the first phase reaches the
/// UNKNOWN sink of the access, the second checks the error location alone.
const SINK_THEN_SAFE: &str = "int main(void) {\n\
                              int a[2] = {0, 0};\n\
                              int i = __VERIFIER_nondet_int();\n\
                              if (i >= 0 && i <= 2) {\n\
                              int v = a[i];\n\
                              if (v > 5) reach_error();\n\
                              }\n\
                              return 0;\n}\n";

/// Write `body` (after the usual declarations) to a file of its own.
fn program(name: &str, body: &str) -> PathBuf {
    let dir = temp_dir(&format!("cli-verify-{name}"));
    let f = dir.join(format!("{name}.c"));
    std::fs::write(&f, format!("{HEADER}{body}")).expect("program written");
    f
}

fn verify(file: &Path, extra: &[&str]) -> Run {
    let f = file.to_str().expect("UTF-8 path");
    let mut args = vec!["verify", f];
    args.extend_from_slice(extra);
    bitmc(&args)
}

fn assert_exit(r: &Run, code: i32, last: &str) {
    assert_eq!(
        (r.code, r.last_line()),
        (code, last),
        "stdout:\n{}\nstderr:\n{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn true_verdict_exits_0() {
    let f = program("safe", SAFE);
    for engine in ["portfolio", "kind", "pdr"] {
        let r = verify(&f, &["--engine", engine]);
        assert_exit(&r, TRUE, "TRUE");
        assert!(
            r.stdout.starts_with("TRUE (unreach-call) ("),
            "{engine}: {}",
            r.stdout
        );
    }
}

/// A member with nothing to add (`euf:only-abstract` on a program without a product, a
/// quotient, a remainder or a shift by a variable) stays out of the race and `-v` says why;
/// alone, it answers UNKNOWN with that reason.
#[test]
fn an_idle_member_is_left_out_of_the_race() {
    let f = program("idle", SAFE_LOOP);
    let idle = "euf:cadical:only-abstract";
    let r = verify(&f, &["--member", idle, "--member", "pdr:cadical", "-v"]);
    assert_exit(&r, TRUE, "TRUE");
    assert!(
        r.stderr.contains("left out: nothing to abstract"),
        "{}",
        r.stderr
    );
    let r = verify(&f, &["--member", idle]);
    assert_exit(&r, UNKNOWN, "UNKNOWN");
    assert!(r.stdout.contains("nothing to abstract"), "{}", r.stdout);
    let busy = "int main(void) {\n\
                unsigned x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();\n\
                int s = 0;\n\
                while (__VERIFIER_nondet_int()) { if (x * y > 5) s = 1 - s; x = x * y; }\n\
                if (s > 1) reach_error();\n\
                return 0;\n}\n";
    let f = program("busy", busy);
    let r = verify(&f, &["--member", idle, "-v"]);
    assert_exit(&r, TRUE, "TRUE");
    assert!(!r.stderr.contains("left out"), "{}", r.stderr);
}

#[test]
fn false_verdict_exits_10_with_a_trace() {
    let f = program("unsafe", UNSAFE);
    let r = verify(&f, &[]);
    assert_exit(&r, FALSE, "FALSE(unreach-call)");
    assert!(
        r.stdout.starts_with("FALSE (unreach-call) ("),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("nondet values: [42]"), "{}", r.stdout);
    // Where the property fails, as gcc says it, just before the verdict line.
    let lines: Vec<&str> = r.stdout.lines().collect();
    let error = format!(
        "{}:6:14: error: reach_error() is reachable (unreach-call)",
        f.display()
    );
    assert_eq!(lines[lines.len() - 2], error, "{}", r.stdout);
    // The input with its call site and type.
    let input = format!(
        "  {}:5:37: __VERIFIER_nondet_uint() (unsigned int) = 42",
        f.display()
    );
    assert!(lines.contains(&input.as_str()), "{}", r.stdout);
}

/// The statements of a printed trace (`LINE:COL: TEXT`, without the file) each followed by
/// the values it assigned (`  x = 1`).
fn trace_of(r: &Run, file: &Path) -> Vec<String> {
    let prefix = format!("  {}:", file.display());
    let mut out = Vec::new();
    let mut inside = false;
    for l in r.stdout.lines() {
        if !l.starts_with(' ') {
            inside = l.starts_with("trace (");
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(entry) = l.strip_prefix(&prefix) {
            out.push(entry.to_string());
        } else if let Some(effect) = l.strip_prefix("      ") {
            out.push(format!("  {effect}"));
        }
    }
    out
}

/// Under large-block encoding the merged edges hold both branches of an `if`: the trace must
/// still name the statements that ran, one by one, with the values they assigned (matching
/// each write to the first statement of the merged edge writing the same variable printed
/// `y = 1;` with `y = 2`, and `s += 3;` for `s += 1`).
#[test]
fn traces_name_the_statements_that_ran() {
    let if_else = "int main(void) {\n\
                   int x = __VERIFIER_nondet_int();\n\
                   int y;\n\
                   if (x > 0) {\n\
                   y = 1;\n\
                   } else {\n\
                   y = 2;\n\
                   }\n\
                   if (y == 2) reach_error();\n\
                   return 0;\n}\n";
    let loop_ = "int main(void) {\n\
                 int s = 0;\n\
                 int n = __VERIFIER_nondet_int();\n\
                 for (int i = 0; i < 3; i++) {\n\
                 if (n > 5)\n\
                 s += 3;\n\
                 else\n\
                 s += 1;\n\
                 }\n\
                 if (s == 3) reach_error();\n\
                 return 0;\n}\n";
    let f = program("if_else_trace", if_else);
    for extra in [&[][..], &["--no-lbe"][..]] {
        let r = verify(&f, extra);
        assert_exit(&r, FALSE, "FALSE(unreach-call)");
        let t = trace_of(&r, &f);
        let want = [
            "5:1: int x = __VERIFIER_nondet_int();",
            "6:1: int y;",
            "7:1: !(x > 0)",
            "10:1: y = 2;",
            "  y = 2",
            "12:1: y == 2",
            "12:13: reach_error() is reachable",
        ];
        let statements: Vec<&str> = t
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("  ") || *l == "  y = 2")
            .collect();
        assert_eq!(statements, want, "{extra:?}\n{}", r.stdout);
        assert!(!r.stdout.contains("y = 1"), "{}", r.stdout);
    }
    let f = program("loop_trace", loop_);
    for extra in [&[][..], &["--no-lbe"][..]] {
        let r = verify(&f, extra);
        assert_exit(&r, FALSE, "FALSE(unreach-call)");
        let t = trace_of(&r, &f);
        let mut expected: Vec<String> = [
            "5:1: int s = 0;",
            "  s = 0",
            "6:1: int n = __VERIFIER_nondet_int();",
        ]
        .map(String::from)
        .to_vec();
        let iteration = |k: usize| {
            [
                if k == 0 {
                    "7:1: int i = 0;"
                } else {
                    "7:1: i++"
                }
                .to_string(),
                format!("  i = {k}"),
                "  [i < 3]".to_string(),
                "8:1: !(n > 5)".to_string(),
                "11:1: s += 1;".to_string(),
                format!("  s = {}", k + 1),
            ]
        };
        for k in 0..3 {
            expected.extend(iteration(k));
        }
        expected.extend([
            "7:1: i++".to_string(),
            "  i = 3".to_string(),
            "  [!(i < 3)]".to_string(),
            "13:1: s == 3".to_string(),
            "13:13: reach_error() is reachable".to_string(),
        ]);
        // The nondet value (any n <= 5) and its call are left out of the comparison.
        let got: Vec<String> = t
            .iter()
            .filter(|l| !l.starts_with("  __VERIFIER_nondet_int() = ") && !l.starts_with("  n = "))
            .cloned()
            .collect();
        assert_eq!(got, expected, "{extra:?}\n{}", r.stdout);
        assert!(!r.stdout.contains("s += 3"), "{}", r.stdout);
    }
}

/// Function pointers in a trace are named by the function they hold (not by the number the
/// encoding gives it), null as `0 (null)`, and one declared without an initialiser as holding
/// no function.
#[test]
fn traces_name_the_functions_pointers_hold() {
    let src = "int inc(int x) { return x + 1; }\n\
               int dbl(int x) { return 2 * x; }\n\
               int main(void) {\n\
               int (*t[2])(int) = {inc, 0};\n\
               int (*g)(int);\n\
               struct { int (*f)(int); } s;\n\
               s.f = dbl;\n\
               g = t[0];\n\
               if (s.f(g(1)) == 4) reach_error();\n\
               return 0;\n}\n";
    let f = program("function_names", src);
    let r = verify(&f, &[]);
    assert_exit(&r, FALSE, "FALSE(unreach-call)");
    let t = trace_of(&r, &f);
    for want in [
        "  t[0] = inc",
        "  t[1] = 0 (null)",
        "  g = no function",
        "  s.f = no function",
        "  s.f = dbl",
        "  g = inc",
    ] {
        assert!(t.iter().any(|l| l == want), "{want}\n{}", r.stdout);
    }
}

/// BMC alone proves a program whose paths all end: its proof on the preprocessed system (every
/// path at rest) says nothing about the plain one, so it runs again there, and that proof is
/// what is checked.
#[test]
fn bmc_alone_proves_a_program_whose_paths_end() {
    let f = program(
        "paths_end",
        "int main(void) {\n\
         unsigned char a[4] = {1, 2, 3, 4};\n\
         unsigned char *p = a;\n\
         p += __VERIFIER_nondet_uint() % 4;\n\
         if (*p == 0) reach_error();\n\
         return 0;\n}\n",
    );
    let r = verify(&f, &["--engine", "bmc", "-v"]);
    assert_exit(&r, TRUE, "TRUE");
    assert!(
        r.stderr.contains("bmc on the plain system: SAFE"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("re-checked by"), "{}", r.stderr);
}

#[test]
fn unknown_at_a_bound_exits_20() {
    let f = program("safe_loop", SAFE_LOOP);
    let r = verify(&f, &["--engine", "bmc", "--max-depth", "3"]);
    assert_exit(&r, UNKNOWN, "UNKNOWN");
    // The sink program: UNKNOWN with the reason of the sink, after both phases.
    let f = program("sink", SINK_THEN_SAFE);
    let r = verify(&f, &["-v"]);
    assert_exit(&r, UNKNOWN, "UNKNOWN");
    assert!(
        r.stderr.contains("checking the error location alone"),
        "the second phase did not run: {}",
        r.stderr
    );
}

#[test]
fn input_and_usage_errors_exit_1_and_2() {
    let r = bitmc(&["verify", "no/such/file.c"]);
    assert_eq!(r.code, INPUT_ERROR, "{}", r.stderr);
    // One `error:`, after the position when the error has one.
    assert!(
        r.stderr.starts_with("error: ") || r.stderr.starts_with("no/such/file.c: error: "),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.matches("error:").count(), 1, "{}", r.stderr);
    let f = program(
        "float",
        "int main(void) { float x = 1.5f; if (x > 2) reach_error(); }\n",
    );
    let r = verify(&f, &[]);
    assert_eq!(r.code, INPUT_ERROR, "{}", r.stderr);
    assert!(r.stderr.contains("unsupported"), "{}", r.stderr);
    let r = verify(&f, &["--engine", "no-such-engine"]);
    assert_eq!(r.code, USAGE_ERROR, "{}", r.stderr);
}

/// An internal error is exit code 3 in either phase, with the portfolio and with one engine,
/// also when the reason starts with the sink's (the first phase's) reason.
#[test]
fn internal_errors_exit_3_in_either_phase() {
    let safe = program("safe_fault", SAFE);
    let sink = program("sink_fault", SINK_THEN_SAFE);
    let cases: [(&Path, &str, &[&str]); 5] = [
        (&safe, "reject-evidence:1", &[]),
        (&safe, "reject-evidence:1", &["--engine", "kind"]),
        (&sink, "reject-evidence:1", &[]),
        (&sink, "reject-evidence:2", &[]),
        (&sink, "reject-evidence:2", &["--engine", "pdr"]),
    ];
    for (file, fault, extra) in cases {
        let mut args = vec!["--inject-fault", fault];
        args.extend_from_slice(extra);
        let r = verify(file, &args);
        assert_exit(&r, INTERNAL_ERROR, "UNKNOWN");
        let line = r.stdout.lines().next().unwrap_or("");
        assert!(
            line.starts_with("UNKNOWN (")
                && line.contains("internal error: ")
                && line.contains("the evidence was rejected (injected fault)"),
            "{} {fault} {extra:?}: {}",
            file.display(),
            r.stdout
        );
    }
    // The same fault in the phase that does not run changes nothing.
    assert_exit(
        &verify(&safe, &["--inject-fault", "reject-evidence:2"]),
        TRUE,
        "TRUE",
    );
}

/// The loop body of [`wide_products`]: three 64-bit products, each checked for overflow at
/// double width.
const WIDE_STEP: &str = "x = x * y + z;\ny = y * z + x;\nz = z * x + y;\n";

/// A program whose system needs more memory than [`MEMORY_LIMIT`] allows in every engine
/// alone: the loop body is [`WIDE_STEP`] eight times (IC3CFA alone grows past 1.6 GB
/// resident on it without a limit, and PDR, k-induction and BMC need more). Every engine must
/// fail by itself, not only beside the others: one that fits once the others have freed their
/// memory would run on until the timeout.
fn wide_products() -> String {
    format!(
        "extern unsigned short __VERIFIER_nondet_ushort(void);\n\
         int main(void) {{\n\
         long long x = __VERIFIER_nondet_ushort(), y = __VERIFIER_nondet_ushort(), z = 6;\n\
         while (__VERIFIER_nondet_ushort()) {{\n{}}}\n\
         return 0;\n}}\n",
        WIDE_STEP.repeat(8)
    )
}

/// The limit of the memory test: above what the front end and the system of
/// [`wide_products`] need (the front end's thread alone reserves 512 MiB of address space),
/// below what any engine needs for its first steps on it.
const MEMORY_LIMIT: u64 = 1280 << 20;

#[test]
fn a_run_out_of_memory_answers_unknown_memory() {
    let dir = temp_dir("cli-verify-memory");
    let f = dir.join("wide_products.c");
    std::fs::write(&f, wide_products()).expect("program written");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bitmc"));
    cmd.args(["verify", "--property", "no-overflow", "--timeout", "120"])
        .arg(&f);
    // SAFETY: the closure runs between fork and exec and calls only `setrlimit`, which is
    // async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: MEMORY_LIMIT as libc::rlim_t,
                rlim_max: MEMORY_LIMIT as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().expect("bitmc runs");
    let r = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        out.status.code().is_some(),
        "killed by a signal ({:?}): {}",
        out.status,
        r.stderr
    );
    assert_exit(&r, UNKNOWN, "UNKNOWN");
    assert!(
        r.stdout.starts_with("UNKNOWN (memory)"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
}

/// `SIGTERM` (what `timeout` and benchmark runners send) or Ctrl-C stops a run that would go on
/// for ever: it answers `UNKNOWN (interrupted)` with exit code 20 and its statistics under `-v`,
/// instead of dying without a word.
#[test]
fn a_terminated_run_answers_unknown_with_its_statistics() {
    let f = program("terminated", SAFE_LOOP);
    let child = Command::new(env!("CARGO_BIN_EXE_bitmc"))
        .args(["verify", "--engine", "bmc", "-v"])
        .arg(&f)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bitmc runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: sending a signal to a child we own.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let out = child.wait_with_output().expect("bitmc ends");
    let r = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert_exit(&r, UNKNOWN, "UNKNOWN");
    assert!(
        r.stdout.starts_with("UNKNOWN (interrupted)"),
        "{}",
        r.stdout
    );
    assert!(r.stderr.contains("SAT calls"), "{}", r.stderr);
}

/// Runs `bitmc verify ARGS FILE` under an address-space limit of `limit` bytes.
fn verify_with_address_limit(
    limit: u64,
    args: &[&str],
    file: &std::path::Path,
) -> (Run, std::time::Duration) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bitmc"));
    cmd.arg("verify").args(args).arg(file);
    // SAFETY: the closure runs between fork and exec and calls only `setrlimit`, which is
    // async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: limit as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = std::time::Instant::now();
    let out = cmd.output().expect("bitmc runs");
    let took = start.elapsed();
    (
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        },
        took,
    )
}

/// Too little address space for the front end's thread: `UNKNOWN (memory)`, not an error.
#[test]
fn a_run_without_room_for_the_front_end_answers_unknown_memory() {
    let dir = temp_dir("cli-verify-no-room");
    let f = dir.join("small.c");
    std::fs::write(
        &f,
        "extern void reach_error(void);\nint main(void) { return 0; }\n",
    )
    .expect("program written");
    let (r, _) = verify_with_address_limit(300 << 20, &[], &f);
    assert_exit(&r, UNKNOWN, "UNKNOWN");
    assert!(
        r.stdout.starts_with("UNKNOWN (memory)"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    // The JSON document says so too (on stdout alone for `-`).
    let (r, _) = verify_with_address_limit(300 << 20, &["--json", "-"], &f);
    assert_eq!(r.code, UNKNOWN, "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", r.stdout, r.stderr));
    assert_eq!(doc["verdict"], "UNKNOWN", "{doc}");
    assert_eq!(doc["properties"][0]["reason"], "memory", "{doc}");
}

/// A 4096-element array indexed by two nondet values: every phase before and in the engines
/// (candidate invariants, Houdini, encoding, sweeping) stops at the time limit, and the answer
/// comes within a few seconds of it, in bounded memory.
#[test]
fn a_large_array_answers_within_its_time_limit() {
    let dir = temp_dir("cli-verify-large-array");
    let f = dir.join("large_array.c");
    std::fs::write(
        &f,
        "extern void reach_error(void); extern unsigned __VERIFIER_nondet_uint(void);\n\
         int a[4096];\n\
         int main(void) { unsigned i = __VERIFIER_nondet_uint(), j = __VERIFIER_nondet_uint();\n\
           if (i < 4096 && j < 4096) { a[i] = 5; if (a[j] == 5 && i != j) reach_error(); }\n\
           return 0; }\n",
    )
    .expect("program written");
    let (r, took) = verify_with_address_limit(12 << 30, &["--timeout", "8"], &f);
    // The watchdog answers at the latest 2 s (its grace) after the limit; 2 s more for a
    // loaded machine.
    assert!(
        took.as_secs_f64() < 8.0 + 2.0 + 2.0,
        "answered after {took:?}: {}\n{}",
        r.stdout,
        r.stderr
    );
    // The program is safe (a[j] == 5 only for j == i): no FALSE, whatever the time allows.
    assert!(
        r.code == 0 || r.code == UNKNOWN,
        "{}\n{}",
        r.stdout,
        r.stderr
    );
}

/// The habits of C checkers: `bitmc FILE.c` is `bitmc verify FILE.c`, and `-I`/`-D` reach the
/// preprocessor; a missing header is gcc's error line, once.
#[test]
fn file_first_and_preprocessor_options() {
    let dir = temp_dir("cli-verify-cpp");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/limit.h"), "#define LIMIT 7\n").unwrap();
    let f = dir.join("cpp.c");
    std::fs::write(
        &f,
        format!("#include \"limit.h\"\n{HEADER}int main(void) {{\n#ifdef BUG\n  if (LIMIT == 7) reach_error();\n#endif\n  return 0;\n}}\n"),
    )
    .unwrap();
    let p = f.to_str().unwrap();
    let inc = dir.join("inc");
    let inc = inc.to_str().unwrap();
    assert_exit(&bitmc(&[p, "-I", inc]), TRUE, "TRUE");
    assert_exit(
        &bitmc(&["-I", inc, "-DBUG", p]),
        FALSE,
        "FALSE(unreach-call)",
    );
    assert_exit(
        &bitmc(&["verify", p, "-I", inc, "-D", "BUG=1"]),
        FALSE,
        "FALSE(unreach-call)",
    );
    let r = bitmc(&[p]);
    assert_eq!(r.code, INPUT_ERROR, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(&format!("{p}:1:10: fatal error: ")) && r.stderr.lines().count() == 1,
        "{}",
        r.stderr
    );
    // A misspelt command is still a usage error, not a file.
    assert_eq!(bitmc(&["verfy", p]).code, USAGE_ERROR);
}

/// `bitmc verify --help`: the options in groups, in a reader's order, every option with its
/// text, and the exit codes; `-h` is the short form.
#[test]
fn help_groups_every_option() {
    let long = bitmc(&["verify", "--help"]);
    assert_eq!(long.code, 0, "{}", long.stderr);
    let headings: Vec<&str> = long
        .stdout
        .lines()
        .filter(|l| !l.starts_with(' ') && l.ends_with(':'))
        .collect();
    assert_eq!(
        headings,
        [
            "Arguments:",
            "Options:",
            "Input and its encoding:",
            "Properties:",
            "Engines:",
            "Tuning:",
            "Tuning (PDR):",
            "Output and witnesses:",
            "Exit codes:"
        ],
        "{}",
        long.stdout
    );
    // Under "Options:" only --help (and --version) are left; every option has a text.
    let mut section = "";
    let mut options = Vec::new();
    for (i, l) in long.stdout.lines().enumerate() {
        if !l.starts_with(' ') && l.ends_with(':') {
            section = l;
            continue;
        }
        let t = l.trim_start();
        if l.starts_with("  ") && t.starts_with('-') && l.len() - t.len() <= 6 {
            options.push((
                section,
                t.split_whitespace().next().unwrap_or("").to_string(),
            ));
            let next = long.stdout.lines().nth(i + 1).unwrap_or("");
            assert!(
                next.trim().len() > 10,
                "{t} has no text in\n{}",
                long.stdout
            );
        }
    }
    for (section, opt) in &options {
        if *section == "Options:" {
            assert!(opt.starts_with("-h"), "{opt} is in no group");
        }
    }
    for want in ["--json", "--timeout", "--property", "-I", "--no-lift"] {
        assert!(
            options.iter().any(|(_, o)| o.starts_with(want)),
            "{want} missing"
        );
    }
    let short = bitmc(&["verify", "-h"]);
    assert_eq!(short.code, 0);
    assert!(
        short.stdout.contains("Output and witnesses:"),
        "{}",
        short.stdout
    );
}

/// A loop of 1000 iterations whose violation needs the right input (x = 500): no engine
/// decides it within a few seconds.
const SLOW: &str = "int main(void) {\n\
                    int x = __VERIFIER_nondet_int(), s = 0;\n\
                    for (int i = 0; i < 1000; i++) { if (x > i) s += 2; else s += 1; }\n\
                    if (s == 1500) reach_error();\n\
                    return 0;\n}\n";

#[test]
fn a_long_run_reports_every_member_on_one_clock() {
    let f = program("progress", SLOW);
    let r = verify(&f, &["--timeout", "8"]);
    assert_exit(&r, 20, "UNKNOWN");
    // Not a terminal: plain lines, at most one every five seconds, after the first second.
    let lines: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert!(lines.len() >= 2, "{}", r.stderr);
    let clock = |l: &str| -> f64 {
        let t = l.strip_prefix('[').and_then(|l| l.split(" s]").next());
        t.and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("no clock in {l}"))
    };
    assert!(clock(lines[0]) >= 1.0, "{}", lines[0]);
    for w in lines.windows(2) {
        assert!(clock(w[1]) - clock(w[0]) >= 5.0, "{w:?}");
    }
    // BMC's depth only grows; every member named on a line has its depth.
    let depth = |l: &str| -> usize {
        let at = l.find("bmc:cadical depth ").expect("bmc reports") + 18;
        l[at..].split(' ').next().unwrap().parse().unwrap()
    };
    assert!(depth(lines[1]) > depth(lines[0]), "{lines:?}");
    let last = lines.last().unwrap();
    for m in [
        "bmc:cadical depth",
        "pdr:cadical frame",
        "ic3cfa:cadical level",
    ] {
        assert!(last.contains(m), "{m} missing in {last}");
    }
}
