//! The independent check of a correctness witness's invariants: it shares no code with
//! bitmc (only gcc, the program's text and the harness `induction.c`), and asks whether the
//! invariants carry a proof by themselves.
//!
//! Every loop of the program is a cut point, with the conjunction of the witness's
//! invariants located at it (`1` where it has none). Each loop condition is instrumented
//! (see `induction.c`) so that
//!
//! 1. **from the initial state**, every arrival at a loop head checks its invariant, on many
//!    runs with random nondet values: an invariant that fails there is false, and the witness
//!    is rejected with the run;
//! 2. **induction** (one step of 1-induction over the cut points, by testing): for each loop
//!    head in turn, a run gives every variable in scope there arbitrary values (an assumption
//!    pair: havoc, then assume the invariant), and runs to the next loop head, where that
//!    head's invariant is asserted, or to the end of the program or an error. A run that
//!    reaches the error (for `no-overflow`: an overflow, reported by UBSan) or breaks the next
//!    head's invariant is a counterexample to induction: the invariants, as written, do not
//!    prove the property, and the witness is unconfirmed, with the state.
//!
//! The values (nondet results and the havocked variables) are drawn from small numbers, type
//! boundaries and the constants of the program and of the invariants with their neighbours.
//! This is testing: a witness that passes is confirmed for the samples drawn, and a proof by a
//! model checker ([`super::invariants`]) must come on top.

use super::invariants::{apply_edits, condition_edits, find_loop, loop_keywords_on_line};
use super::scope::{in_scope, Var};
use super::source::Source;
use super::{run_limited, scratch_dir, Check, DataModel, Outcome, Property, Rejection, Witness};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Runs from the initial state, and per loop head from havocked states.
pub const INIT_TRIALS: usize = 300;
pub const STEP_TRIALS: usize = 3000;
/// The time of one batch of runs at most (seconds).
pub const BATCH_SECS: f64 = 15.0;
/// The fewest havocked states that must satisfy a head's invariant for the check to count.
pub const MIN_ASSUMED: u64 = 30;

/// The outcome counts of a batch of runs (the order of `induction.c`).
#[derive(Debug, Default, Clone)]
pub struct Counts {
    pub ended: u64,
    pub error: u64,
    pub assume: u64,
    pub inductive: u64,
    pub cti: u64,
    pub init_fail: u64,
    pub not_assumed: u64,
    pub overflow: u64,
    pub timeout: u64,
    pub other: u64,
    /// With a start: runs that never arrived there.
    pub not_reached: u64,
    /// Runs made (fewer than asked when the time budget ran out).
    pub made: u64,
    /// The report lines of failing runs.
    pub reports: Vec<String>,
}

fn parse_counts(out: &str) -> Option<Counts> {
    let line = out.lines().find_map(|l| l.strip_prefix("induction:"))?;
    let n: Vec<u64> = line
        .split_whitespace()
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    let [ended, error, assume, inductive, cti, init_fail, not_assumed, overflow, timeout, other, not_reached, made] =
        n[..]
    else {
        return None;
    };
    Some(Counts {
        ended,
        error,
        assume,
        inductive,
        cti,
        init_fail,
        not_assumed,
        overflow,
        timeout,
        other,
        not_reached,
        made,
        reports: out
            .lines()
            .filter_map(|l| l.strip_prefix("induction-run: "))
            .map(String::from)
            .collect(),
    })
}

/// The havoc of a variable as a C expression.
fn havoc(v: &Var) -> String {
    let elem = format!("{}{}", v.name, "[0]".repeat(v.dims));
    format!(
        "__induction_havoc(&{n}, sizeof {n}, sizeof {elem}, \"{n}\")",
        n = v.name
    )
}

/// The integer literals of a text, with their neighbours and negations (the value pool).
fn pool(texts: &[&str]) -> Vec<i64> {
    let mut out = Vec::new();
    for t in texts {
        for tok in t.split(|c: char| !c.is_ascii_alphanumeric()) {
            let tok = tok.trim_end_matches(['u', 'U', 'l', 'L']);
            let v = match tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16).ok(),
                None if tok.bytes().all(|b| b.is_ascii_digit()) => tok.parse().ok(),
                None => None,
            };
            if let Some(v) = v {
                for x in [v, v + 1, v - 1, -v, -v - 1] {
                    if !out.contains(&x) {
                        out.push(x);
                    }
                }
            }
        }
    }
    out
}

/// The program instrumented for the check: every loop head numbered from 1.
pub fn instrument(src: &Source, w: &Witness) -> Result<(String, usize), Rejection> {
    let mut heads: Vec<(usize, &'static str)> = Vec::new();
    for line in 1..=src.text.lines().count() {
        heads.extend(loop_keywords_on_line(src, line));
    }
    let mut invs: Vec<Vec<&str>> = vec![Vec::new(); heads.len()];
    for inv in &w.invariants {
        let (off, _) = find_loop(src, inv)?;
        let k = heads.iter().position(|h| h.0 == off).ok_or_else(|| {
            Rejection::new(Check::Structure, format!("no loop at {}", inv.location))
        })?;
        invs[k].push(&inv.expr);
    }
    let mut edits = Vec::new();
    for (k, (&(off, kw), exprs)) in heads.iter().zip(&invs).enumerate() {
        let inv = if exprs.is_empty() {
            "1".to_string()
        } else {
            exprs
                .iter()
                .map(|e| format!("({e})"))
                .collect::<Vec<_>>()
                .join(" && ")
        };
        let mut havocs: Vec<String> = in_scope(src, off).iter().map(havoc).collect();
        havocs.push("1".into());
        let k = k + 1;
        let checks = format!(
            "((__induction_arm({k}) && ({})), __induction_pre(), __induction_head({k}, ({inv})))",
            havocs.join(", ")
        );
        edits.extend(condition_edits(src, off, kw, &checks)?);
    }
    let pre = "/* instrumented by the independent invariant check */\n\
               int __induction_arm(int k);\n\
               void __induction_havoc(void *p, unsigned long size, unsigned long elem, const char *name);\n\
               void __induction_pre(void);\n\
               int __induction_head(int k, int ok);\n";
    Ok((
        format!("{pre}{}", apply_edits(&src.text, edits)),
        heads.len(),
    ))
}

/// Compile the instrumented program with the harness.
fn build(text: &str, w: &Witness, dir: &Path) -> Result<std::path::PathBuf, String> {
    let file = dir.join("induction.c");
    std::fs::write(&file, text).map_err(|e| e.to_string())?;
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/witness_check/induction.c");
    let exe = dir.join("prog");
    let mut cmd = Command::new("gcc");
    cmd.args(["-std=gnu11", "-O0", "-w"]);
    if w.data_model == DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    match w.property {
        Property::UnreachCall => cmd.arg("-fwrapv"),
        Property::NoOverflow => cmd.args([
            "-fsanitize=signed-integer-overflow",
            "-fno-sanitize-recover=all",
        ]),
    };
    cmd.args(["-Dmain=__witness_program_main", "-x", "c"])
        .arg(&file)
        .args(["-x", "none"])
        .arg(&harness)
        .arg("-o")
        .arg(&exe);
    let out = cmd.output().map_err(|e| format!("gcc does not run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gcc rejects the instrumented program: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .filter(|l| l.contains("error"))
                .take(3)
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    Ok(exe)
}

/// One batch of runs.
fn runs(
    exe: &Path,
    start: usize,
    trials: usize,
    pool: &[i64],
    dir: &Path,
) -> Result<Counts, String> {
    let mut cmd = Command::new(exe);
    cmd.env("INDUCTION_START", start.to_string())
        .env("INDUCTION_TRIALS", trials.to_string())
        .env("INDUCTION_SEED", (start as u64 * 7919 + 1).to_string())
        .env(
            "INDUCTION_POOL",
            pool.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(","),
        )
        .env("INDUCTION_SECONDS", BATCH_SECS.to_string())
        .env("UBSAN_OPTIONS", "exitcode=1:print_stacktrace=0");
    let ran = run_limited(&mut cmd, Duration::from_secs(600), dir).map_err(|e| e.to_string())?;
    parse_counts(&ran.stdout).ok_or_else(|| {
        format!(
            "the harness printed no counts (exit {:?}): {}",
            ran.code,
            ran.stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
        )
    })
}

/// Check the invariants of `w` (module documentation): `Ok` with a summary when nothing
/// refutes them, `Err` with the outcome otherwise.
pub fn check(w: &Witness, src: &Source) -> Result<String, Outcome> {
    let (text, heads) = instrument(src, w).map_err(Outcome::Rejected)?;
    let dir = scratch_dir("induction");
    let result = (|| {
        let exe = build(&text, w, &dir).map_err(Outcome::Unconfirmed)?;
        let exprs: Vec<&str> = w.invariants.iter().map(|i| i.expr.as_str()).collect();
        let mut texts = vec![src.text.as_str()];
        texts.extend(exprs);
        let pool = pool(&texts);
        let unsafe_run = |c: &Counts| match w.property {
            Property::UnreachCall => c.error,
            Property::NoOverflow => c.overflow,
        };
        let init = runs(&exe, 0, INIT_TRIALS, &pool, &dir).map_err(Outcome::Unconfirmed)?;
        if init.init_fail > 0 || unsafe_run(&init) > 0 {
            return Err(Outcome::Rejected(Rejection::new(
                Check::Invariant,
                format!(
                    "a gcc run from the initial state finds {} FALSE: {}",
                    if init.init_fail > 0 {
                        "the invariants"
                    } else {
                        "the property"
                    },
                    init.reports.join("; ")
                ),
            )));
        }
        let mut assumed = Vec::new();
        for k in 1..=heads {
            let c = runs(&exe, k, STEP_TRIALS, &pool, &dir).map_err(Outcome::Unconfirmed)?;
            if c.cti > 0 || unsafe_run(&c) > 0 {
                return Err(Outcome::Unconfirmed(format!(
                    "the invariants are not inductive: from loop head {k} ({} of {} sampled \
                     states satisfy its invariant), {} runs break the next head's invariant and \
                     {} violate the property: {}",
                    c.made - c.not_assumed - c.timeout - c.not_reached,
                    c.made,
                    c.cti,
                    unsafe_run(&c),
                    c.reports.join("; ")
                )));
            }
            // Runs that tested the step: they arrived, and the havocked state satisfied the
            // invariant. A head that no run reaches needs no invariant.
            let n = c.made - c.not_assumed - c.timeout - c.not_reached - c.other;
            if n < MIN_ASSUMED && c.made > c.not_reached {
                return Err(Outcome::Unconfirmed(format!(
                    "only {n} of {} sampled states satisfy the invariant of loop head {k}",
                    c.made
                )));
            }
            assumed.push(n);
        }
        Ok(format!(
            "{INIT_TRIALS} runs from the initial state keep every invariant; at each of the \
             {heads} loop heads, {:?} sampled states satisfying it stay inductive",
            assumed
        ))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}
