//! Replaying a violation witness with gcc, in the spirit of witness2test.
//!
//! Before running anything, the witness must point at the right places in the program:
//! each nondet value at a `__VERIFIER_nondet_*` call (YAML: the call's closing parenthesis,
//! where format 2.0 puts a `function_return` waypoint; GraphML: a `startline` on which the
//! `assumption.resultfunction` is called), each value in the range of that function's return
//! type under the witness's data model, and, for `unreach-call`, the target on a line that
//! calls an error function.
//!
//! Then the original program is compiled with `harness.c` (beside this file), whose nondet
//! functions return the witness's values in order, and run with a time limit:
//! - `unreach-call`: built as the fixture oracle builds programs (`-std=gnu11 -O0 -fwrapv`,
//!   `-m32` for ILP32); the run must call an error function;
//! - `no-overflow`: built without `-fwrapv` and with
//!   `-fsanitize=signed-integer-overflow,shift -fno-sanitize-recover=all`; UBSan's first report
//!   must be a signed overflow (not a shift by an oversized amount, which the property does not
//!   cover) on the target line.
//!
//! In both cases the run must use exactly the witness's values: asking for more means the
//! witness is incomplete; using fewer means some of its waypoints are never passed.
//!
//! **Uninitialised variables.** A program that reads an automatic variable it never
//! initialised reads whatever the stack holds, which depends on the build, not on the witness
//! (`s3_clnt_1` with the same witness runs to the error with all its values when linked at
//! fixed addresses, and skips a nondet call, reading a pointer's bits, when position
//! independent). So the replay is built with `-ftrivial-auto-var-init=zero` (when gcc has it):
//! such variables are 0, a value their indeterminate values may take. Whether the run depends
//! on them is checked by a second build with `-ftrivial-auto-var-init=pattern`: when its run
//! ends differently, the witness must say why, by an assumption about those variables that the
//! pattern makes false. Assumptions are checked in the replay: the program is instrumented with
//! `__witness_assumption(k, (EXPR));` before the statement at each assumption's location (a
//! YAML location; a GraphML `startline`'s first statement, which is right for an assumption
//! the statement does not change), and the harness checks it the first time that statement is
//! reached after as many values as the witness puts before it. An assumption that does not
//! hold there, or is never reached so, rejects the witness.

use super::source::Source;
use super::{
    gcc_works, invariants, run_limited, scratch_dir, Check, DataModel, Options, Outcome, Property,
    Rejection, Witness,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The error functions a target of `unreach-call` may call.
const ERROR_CALLS: [&str; 6] = [
    "reach_error",
    "__VERIFIER_error",
    "__assert_fail",
    "__VERIFIER_assert",
    "assert",
    "__assert",
];

/// The harness source.
pub fn harness() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/witness_check/harness.c")
}

/// The range (lowest, highest) of the return type of `__VERIFIER_nondet_<suffix>`, when the
/// suffix names a known type.
pub fn nondet_range(function: &str, dm: DataModel) -> Option<(i128, i128)> {
    let suffix = function.strip_prefix("__VERIFIER_nondet_")?;
    let long = if dm == DataModel::Ilp32 { 32 } else { 64 };
    let (bits, signed) = match suffix {
        "bool" | "_Bool" => return Some((0, 1)),
        "char" | "schar" | "s8" | "int8_t" => (8, true),
        "uchar" | "u8" | "uint8_t" => (8, false),
        "short" | "sshort" | "s16" | "int16_t" => (16, true),
        "ushort" | "u16" | "uint16_t" | "char16_t" => (16, false),
        "int" | "sint" | "s32" | "int32_t" | "wchar_t" => (32, true),
        "uint" | "unsigned" | "unsigned_int" | "u32" | "uint32_t" | "char32_t" => (32, false),
        "long" | "slong" | "ssize_t" | "ptrdiff_t" | "intptr_t" => (long, true),
        "ulong" | "unsigned_long" | "size_t" | "uintptr_t" | "sector_t" | "pthread_t" => {
            (long, false)
        }
        "longlong" | "slonglong" | "s64" | "i64" | "int64_t" | "loff_t" => (64, true),
        "ulonglong" | "u64" | "uint64_t" => (64, false),
        _ => return None,
    };
    Some(if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    })
}

fn structure(msg: impl Into<String>) -> Rejection {
    Rejection::new(Check::Structure, msg)
}

/// Check that the witness's values and target point at the right places in the program.
pub fn check_locations(w: &Witness, src: &Source) -> Result<(), Rejection> {
    for (i, v) in w.values.iter().enumerate() {
        let n = i + 1;
        let function = match (&v.function, &v.location) {
            (Some(f), loc) => {
                if !f.starts_with("__VERIFIER_nondet_") {
                    return Err(structure(format!(
                        "value {n} is the result of `{f}`, not of a __VERIFIER_nondet_ function"
                    )));
                }
                if let Some(loc) = loc {
                    if !src.masked_line(loc.line).contains(f.as_str()) {
                        return Err(structure(format!(
                            "value {n} ({f}) is placed at line {}, which does not call {f}",
                            loc.line
                        )));
                    }
                }
                Some(f.clone())
            }
            (None, Some(loc)) => match loc.column {
                Some(col) => {
                    let callee = src
                        .offset(loc.line, col)
                        .and_then(|o| src.callee_of_close(o));
                    match callee {
                        Some(c) if c.starts_with("__VERIFIER_nondet_") => Some(c.to_string()),
                        _ => {
                            return Err(structure(format!(
                                "value {n} is placed at {loc}, which is not the closing parenthesis of a __VERIFIER_nondet_ call (the text there: `{}`)",
                                src.line(loc.line).trim()
                            )))
                        }
                    }
                }
                None => {
                    if !src.masked_line(loc.line).contains("__VERIFIER_nondet_") {
                        return Err(structure(format!(
                            "value {n} is placed at {loc}, which has no __VERIFIER_nondet_ call"
                        )));
                    }
                    None
                }
            },
            (None, None) => None,
        };
        if let Some(f) = function {
            if let Some((lo, hi)) = nondet_range(&f, w.data_model) {
                if v.value < lo || v.value > hi {
                    return Err(structure(format!(
                        "value {n} ({}) of {f} is outside its type's range [{lo}, {hi}]",
                        v.value
                    )));
                }
            }
        }
    }
    if w.property == Property::UnreachCall {
        if let Some(t) = &w.target {
            let line = src.masked_line(t.line);
            let calls = ERROR_CALLS.iter().any(|e| {
                line.match_indices(e).any(|(i, _)| {
                    let b = line.as_bytes();
                    let before = i == 0 || !super::source::ident_byte(b[i - 1]);
                    let after = line[i + e.len()..].trim_start().starts_with('(');
                    before && after
                })
            });
            if !calls {
                return Err(structure(format!(
                    "the target is at {t}, which calls no error function: `{}`",
                    src.line(t.line).trim()
                )));
            }
        }
    }
    Ok(())
}

/// How a build initialises the automatic variables a program does not initialise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoInit {
    /// gcc's default: they hold what the stack holds.
    Stack,
    /// `-ftrivial-auto-var-init=zero`.
    Zero,
    /// `-ftrivial-auto-var-init=pattern` (every byte 0xFE with gcc).
    Pattern,
}

/// Whether gcc has `-ftrivial-auto-var-init` (gcc 12 and later); checked once.
pub fn auto_init_works() -> bool {
    static WORKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WORKS.get_or_init(|| {
        let dir = scratch_dir("auto-init-probe");
        let src = dir.join("probe.c");
        let ok = std::fs::write(&src, "int main(void) { int x; return x * 0; }\n").is_ok()
            && Command::new("gcc")
                .args(["-w", "-fsyntax-only", "-ftrivial-auto-var-init=pattern"])
                .arg(&src)
                .output()
                .is_ok_and(|o| o.status.success());
        let _ = std::fs::remove_dir_all(&dir);
        ok
    })
}

/// The automatic-variable initialisation of the replay: zero when gcc can, else gcc's default.
pub fn replay_init() -> AutoInit {
    if auto_init_works() {
        AutoInit::Zero
    } else {
        AutoInit::Stack
    }
}

/// What one run of the program under the harness did.
#[derive(Debug)]
pub struct Run {
    /// The harness's exit code (`None`: a signal or the time limit).
    pub code: Option<i32>,
    pub timed_out: bool,
    /// Values used and values given, from the harness's last line.
    pub used: Option<(usize, usize)>,
    /// The harness's last line (what ended the run).
    pub event: String,
    /// UBSan's first report: (line, message).
    pub ubsan: Option<(usize, String)>,
    /// Assumptions passed and instrumented, when there are some.
    pub assumptions: Option<(usize, usize)>,
}

/// A program compiled with the harness.
pub struct Built {
    pub exe: PathBuf,
    dir: PathBuf,
}

impl Drop for Built {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Compile `program` with the harness (with UBSan when `ubsan`), uninitialised automatic
/// variables as the replay has them ([`replay_init`]); the error is gcc's message.
pub fn build(program: &Path, dm: DataModel, ubsan: bool) -> Result<Built, String> {
    build_with(program, dm, ubsan, replay_init())
}

/// Compile `program` with the harness, uninitialised automatic variables as `init` says.
pub fn build_with(
    program: &Path,
    dm: DataModel,
    ubsan: bool,
    init: AutoInit,
) -> Result<Built, String> {
    let dir = scratch_dir("replay");
    let exe = dir.join("prog");
    let mut cmd = Command::new("gcc");
    cmd.args([
        "-std=gnu11",
        "-O0",
        "-w",
        "-g",
        "-Dmain=__witness_program_main",
    ]);
    if dm == DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    if ubsan {
        cmd.args([
            "-fsanitize=signed-integer-overflow,shift",
            "-fno-sanitize-recover=all",
        ]);
    } else {
        cmd.arg("-fwrapv");
    }
    match init {
        AutoInit::Stack => {}
        AutoInit::Zero => {
            cmd.arg("-ftrivial-auto-var-init=zero");
        }
        AutoInit::Pattern => {
            cmd.arg("-ftrivial-auto-var-init=pattern");
        }
    }
    cmd.arg("-x")
        .arg("c")
        .arg(program)
        .arg("-x")
        .arg("none")
        .arg(harness());
    cmd.arg("-o").arg(&exe);
    let out = cmd.output().map_err(|e| format!("gcc does not run: {e}"))?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        let _ = std::fs::remove_dir_all(&dir);
        return Err(format!(
            "gcc cannot build {}: {}",
            program.display(),
            msg.lines().take(6).collect::<Vec<_>>().join(" | ")
        ));
    }
    Ok(Built { exe, dir })
}

/// Run a built program with nondet values (decimal texts).
pub fn run(built: &Built, values: &[String], limit: Duration) -> Run {
    run_with(built, values, &[], limit)
}

/// Run a built program with nondet values and, for each instrumented assumption, how many
/// values come before it.
pub fn run_with(built: &Built, values: &[String], assume_at: &[usize], limit: Duration) -> Run {
    let dir = scratch_dir("run");
    let mut cmd = Command::new(&built.exe);
    cmd.env("WITNESS_VALUES", values.join(","))
        .env(
            "WITNESS_ASSUMPTIONS",
            assume_at
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(","),
        )
        .env("UBSAN_OPTIONS", "abort_on_error=1:print_stacktrace=0");
    let ran = run_limited(&mut cmd, limit, &dir).expect("the compiled program starts");
    let _ = std::fs::remove_dir_all(&dir);
    let event = ran
        .stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("witness-harness: "))
        .unwrap_or("")
        .to_string();
    let used = event.rsplit_once(" after ").and_then(|(_, tail)| {
        let mut it = tail.split_whitespace();
        let u = it.next()?.parse().ok()?;
        it.next().filter(|w| *w == "of")?;
        let m = it.next()?.parse().ok()?;
        Some((u, m))
    });
    let ubsan = ran.stderr.lines().find_map(|l| {
        let (head, msg) = l.split_once(": runtime error: ")?;
        // head = FILE:LINE:COL
        let mut parts = head.rsplitn(3, ':');
        let _col = parts.next()?;
        let line = parts.next()?.parse().ok()?;
        Some((line, msg.to_string()))
    });
    let assumptions = ran.stderr.lines().rev().find_map(|l| {
        let tail = l.strip_prefix("witness-harness: assumptions passed ")?;
        let (p, a) = tail.split_once(" of ")?;
        Some((p.trim().parse().ok()?, a.trim().parse().ok()?))
    });
    Run {
        code: ran.code,
        timed_out: ran.timed_out,
        used,
        assumptions,
        event: event
            .strip_prefix("witness-harness: ")
            .unwrap_or(&event)
            .to_string(),
        ubsan,
    }
}

/// Whether an UBSan message reports an overflow in the sense of `no-overflow` (signed
/// arithmetic, negation, division, or a left shift whose result is not representable) rather
/// than another undefined operation (a shift by a negative or oversized amount).
pub fn is_overflow_report(msg: &str) -> bool {
    msg.starts_with("signed integer overflow")
        || msg.starts_with("negation of")
        || (msg.starts_with("division of") && msg.contains("cannot be represented"))
        || (msg.starts_with("left shift of") && msg.contains("cannot be represented"))
}

/// The program text with a check of each assumption before the statement at its location
/// (`__witness_assumption(k, (EXPR));`, k from 0), after a prelude that declares the check and
/// restores the line numbers. `Err` is the outcome when an assumption cannot be checked.
pub fn instrument_assumptions(src: &Source, w: &Witness) -> Result<String, Outcome> {
    let mut edits: Vec<(usize, String)> = Vec::new();
    for (k, a) in w.assumptions.iter().enumerate() {
        let n = k + 1;
        invariants::check_expression(&a.expr)
            .map_err(|r| Outcome::Rejected(structure(format!("assumption {n}: {}", r.reason))))?;
        let at = match a.location.column {
            Some(c) => src.offset(a.location.line, c),
            None => src
                .offset(a.location.line, 1)
                .map(|o| src.skip_blank(o))
                .filter(|&o| src.line_of(o) == a.location.line),
        }
        .ok_or_else(|| {
            Outcome::Rejected(structure(format!(
                "assumption {n} is at {}, where the program has no text",
                a.location
            )))
        })?;
        // A statement can be put before another only inside a block.
        let before = src.masked[..at]
            .iter()
            .rev()
            .find(|b| !b.is_ascii_whitespace())
            .copied();
        let starts = src.masked.get(at).is_some_and(|b| !b.is_ascii_whitespace());
        if !starts || !matches!(before, None | Some(b';' | b'{' | b'}' | b':')) {
            return Err(Outcome::Unconfirmed(format!(
                "assumption {n} ({}) is not at a statement in a block, where the replay could check it",
                a.location
            )));
        }
        edits.push((at, format!("__witness_assumption({k}, ({})); ", a.expr)));
    }
    let mut text = src.text.clone();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    for (at, insert) in edits {
        text.insert_str(at, &insert);
    }
    let name = w
        .program
        .file_name()
        .map(|f| f.to_string_lossy().replace(['"', '\\'], "_"))
        .unwrap_or_default();
    Ok(format!(
        "void __witness_assumption(int, int);\n#line 1 \"{name}\"\n{text}"
    ))
}

/// Validate a violation witness: locations, then the replay (see the module documentation).
pub fn validate(w: &Witness, opts: &Options) -> Outcome {
    let text = match std::fs::read_to_string(&w.program) {
        Ok(t) => t,
        Err(e) => return Outcome::Rejected(Rejection::new(Check::Read, e.to_string())),
    };
    let src = Source::new(&text);
    if let Err(r) = check_locations(w, &src) {
        return Outcome::Rejected(r);
    }
    let ubsan = w.property == Property::NoOverflow;
    if let Err(e) = gcc_works(w.data_model, ubsan) {
        return Outcome::Unconfirmed(e);
    }
    // The program with its assumptions' checks, in a directory of its own.
    let dir = scratch_dir("assumptions");
    let program = if w.assumptions.is_empty() {
        w.program.clone()
    } else {
        let instrumented = match instrument_assumptions(&src, w) {
            Ok(t) => t,
            Err(o) => {
                let _ = std::fs::remove_dir_all(&dir);
                return o;
            }
        };
        let f = dir.join("instrumented.c");
        if let Err(e) = std::fs::write(&f, instrumented) {
            let _ = std::fs::remove_dir_all(&dir);
            return Outcome::Unconfirmed(e.to_string());
        }
        f
    };
    let outcome = replay_runs(w, &program, ubsan, opts);
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

/// The replay of `program` (the witness's, instrumented with its assumptions): the run with
/// uninitialised variables 0 judged, and the run with them filled with a pattern compared.
fn replay_runs(w: &Witness, program: &Path, ubsan: bool, opts: &Options) -> Outcome {
    let init = replay_init();
    let built = match build_with(program, w.data_model, ubsan, init) {
        Ok(b) => b,
        Err(e) if !w.assumptions.is_empty() && build(&w.program, w.data_model, ubsan).is_ok() => {
            return Outcome::Rejected(structure(format!(
                "the assumptions do not compile where they are: {e}"
            )))
        }
        Err(e) => return Outcome::Unconfirmed(e),
    };
    let values: Vec<String> = w.values.iter().map(|v| v.value.to_string()).collect();
    let assume_at: Vec<usize> = w.assumptions.iter().map(|a| a.after_values).collect();
    let limit = Duration::from_secs_f64(opts.run_secs);
    let r = run_with(&built, &values, &assume_at, limit);
    let verdict = judge(w, &r, values.len(), opts);
    // A run that fails a stated assumption, or misses one, is judged on that.
    let assumptions_failed = r.code == Some(106) || r.assumptions.is_some_and(|(p, a)| p < a);
    if init == AutoInit::Stack || assumptions_failed {
        return verdict;
    }
    let pattern = match build_with(program, w.data_model, ubsan, AutoInit::Pattern) {
        Ok(b) => run_with(&b, &values, &assume_at, limit),
        Err(e) => return Outcome::Unconfirmed(e),
    };
    let ending = |r: &Run| (r.code, r.used, r.ubsan.as_ref().map(|u| u.0), r.timed_out);
    if ending(&pattern) == ending(&r) {
        return verdict;
    }
    if pattern.code == Some(106) {
        // The run depends on uninitialised variables, and a stated assumption tells the two
        // initialisations apart.
        return match verdict {
            Outcome::Confirmed(m) => Outcome::Confirmed(format!(
                "{m}; it depends on uninitialised variables, as an assumption states"
            )),
            other => other,
        };
    }
    let how = |r: &Run| {
        if r.timed_out {
            "no end within the time limit".to_string()
        } else {
            format!("{} (exit {:?})", r.event, r.code)
        }
    };
    Outcome::Rejected(Rejection::new(
        Check::Replay,
        format!(
            "the run depends on the values of uninitialised variables, and no assumption of the witness states them: with them 0, {}; filled with a pattern, {}",
            how(&r),
            how(&pattern)
        ),
    ))
}

/// The verdict on one replay run that used `n` values.
fn judge(w: &Witness, r: &Run, n: usize, opts: &Options) -> Outcome {
    let replay = |msg: String| Outcome::Rejected(Rejection::new(Check::Replay, msg));
    if r.timed_out {
        return replay(format!(
            "the program ran longer than {} s with the witness's {n} values",
            opts.run_secs
        ));
    }
    if r.code == Some(106) {
        let k: usize = r
            .event
            .strip_prefix("assumption ")
            .and_then(|t| t.split_whitespace().next())
            .and_then(|k| k.parse().ok())
            .unwrap_or(0);
        let what = w
            .assumptions
            .get(k.wrapping_sub(1))
            .map(|a| format!(" (`{}` at {})", a.expr, a.location))
            .unwrap_or_default();
        return replay(format!(
            "assumption {k}{what} does not hold where the run passes it, with uninitialised automatic variables 0"
        ));
    }
    if let Some((p, a)) = r.assumptions {
        if p < a {
            return replay(format!(
                "the run ({}) passes only {p} of the witness's {a} assumptions, each where the witness puts it after the values before it",
                r.event
            ));
        }
    }
    let used_all = match r.used {
        Some((u, m)) if u == m => Ok(()),
        Some((u, m)) => Err(format!(
            "the run ended ({}) having used {u} of the witness's {m} values",
            r.event
        )),
        None => Err(format!("the harness did not report (exit {:?})", r.code)),
    };
    match w.property {
        Property::UnreachCall => {
            if r.code == Some(103) {
                return replay(format!(
                    "the witness is incomplete: the program asked for more than its {n} values"
                ));
            }
            if r.code != Some(101) {
                return replay(format!(
                    "the run did not reach an error function: {} (exit {:?})",
                    r.event, r.code
                ));
            }
            if let Err(e) = used_all {
                return replay(e);
            }
            Outcome::Confirmed(format!("gcc run: {} after {n} values", r.event))
        }
        Property::NoOverflow => {
            let Some((line, msg)) = &r.ubsan else {
                if r.code == Some(103) {
                    return replay(format!(
                        "the witness is incomplete: the program asked for more than its {n} values before any overflow"
                    ));
                }
                return replay(format!(
                    "UBSan reports no overflow: {} (exit {:?})",
                    r.event, r.code
                ));
            };
            if !is_overflow_report(msg) {
                return replay(format!(
                    "UBSan's first report (line {line}) is not an overflow: {msg}"
                ));
            }
            if let Some(t) = &w.target {
                if t.line != *line {
                    return replay(format!(
                        "UBSan reports the overflow at line {line} ({msg}), the witness's target is at line {}",
                        t.line
                    ));
                }
            }
            if let Err(e) = used_all {
                return replay(e);
            }
            Outcome::Confirmed(format!("UBSan at line {line}: {msg} (after {n} values)"))
        }
    }
}
