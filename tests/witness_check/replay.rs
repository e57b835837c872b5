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

use super::source::Source;
use super::{
    gcc_works, run_limited, scratch_dir, Check, DataModel, Options, Outcome, Property, Rejection,
    Witness,
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

/// Compile `program` with the harness (with UBSan when `ubsan`); the error is gcc's message.
pub fn build(program: &Path, dm: DataModel, ubsan: bool) -> Result<Built, String> {
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
    let dir = scratch_dir("run");
    let mut cmd = Command::new(&built.exe);
    cmd.env("WITNESS_VALUES", values.join(","))
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
    Run {
        code: ran.code,
        timed_out: ran.timed_out,
        used,
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

/// Validate a violation witness: locations, then the replay.
pub fn validate(w: &Witness, opts: &Options) -> Outcome {
    let text = match std::fs::read_to_string(&w.program) {
        Ok(t) => t,
        Err(e) => return Outcome::Rejected(Rejection::new(Check::Read, e.to_string())),
    };
    if let Err(r) = check_locations(w, &Source::new(&text)) {
        return Outcome::Rejected(r);
    }
    let ubsan = w.property == Property::NoOverflow;
    if let Err(e) = gcc_works(w.data_model, ubsan) {
        return Outcome::Unconfirmed(e);
    }
    let built = match build(&w.program, w.data_model, ubsan) {
        Ok(b) => b,
        Err(e) => return Outcome::Unconfirmed(e),
    };
    let values: Vec<String> = w.values.iter().map(|v| v.value.to_string()).collect();
    let r = run(&built, &values, Duration::from_secs_f64(opts.run_secs));
    let replay = |msg: String| Outcome::Rejected(Rejection::new(Check::Replay, msg));
    let n = values.len();
    if r.timed_out {
        return replay(format!(
            "the program ran longer than {} s with the witness's {n} values",
            opts.run_secs
        ));
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
