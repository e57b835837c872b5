//! Checking a correctness witness: its invariants must pass the independent check of
//! [`super::induction`] (gcc runs only), then they are made part of the program, and bitmc,
//! with an engine other than the one that wrote the witness, must prove the result.
//!
//! **Where an invariant holds.** A `loop_invariant` is located at the first character of the
//! loop's keyword (`while`, `for`, `do`), and holds every time the loop condition is about to
//! be evaluated (the 2.0 paper's wording; for `do` loops that is after the body, not before it,
//! as goblint/analyzer#1736 points out and goblint/analyzer#1847 adopted in Goblint's writer).
//! So the check goes into the condition itself:
//!
//! ```text
//! while (c)          ->  while (__witness_check((INV)) && (c))
//! for (i; c; s)      ->  for (i; __witness_check((INV)) && (c); s)   (empty c: the check alone)
//! do B while (c);    ->  do B while (__witness_check((INV)) && (c));
//! ```
//!
//! with `static int __witness_check(int ok) { if (!ok) reach_error(); return 1; }` in front of
//! the program: the invariant is asserted at each evaluation, and the paths that go on are
//! those where it holds (the assume after the assert). `continue` jumps to the condition too,
//! so no evaluation is missed.
//!
//! **What must be proved.** For `unreach-call`, the instrumented program must be TRUE for
//! `unreach-call` (the invariants and the property together). For `no-overflow`, the program's
//! own error calls are first turned into `abort()` (SV-COMP's `reach_error` aborts; only the
//! checks may reach the error), and the result must be TRUE for `unreach-call` (the invariants)
//! and for `no-overflow` (the property, and no overflow in evaluating the invariants). Each run
//! uses `bitmc verify --engine E --timeout T` with E another engine than the one the witness's
//! producer names (pdr, ic3cfa, kind), trying the others in turn until one is conclusive, and
//! then `bmc`, which proves nothing but finds counterexamples too deep for the provers. A
//! FALSE answer rejects the witness; its counterexample is replayed with gcc (the checks then
//! end the run with a distinct exit code) to say whether execution confirms it.
//!
//! False variants of the invariants, which this check must reject, are made in
//! [`super::mutants`].

use super::source::Source;
use super::{
    gcc_works, graphml::is_trivial, replay, run_limited, scratch_dir, Check, DataModel, Invariant,
    Options, Outcome, Property, Rejection, Witness,
};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The engines that prove, in the order the checker tries them.
pub const PROVERS: [&str; 3] = ["pdr", "ic3cfa", "kind"];

fn structure(msg: impl Into<String>) -> Rejection {
    Rejection::new(Check::Structure, msg)
}

/// The loop keywords on a line: (offset, keyword); the `while` of a `do` loop is not one.
pub fn loop_keywords_on_line(src: &Source, line: usize) -> Vec<(usize, &'static str)> {
    let tails = src.do_while_tails();
    let Some(start) = src.offset(line, 1) else {
        return Vec::new();
    };
    let end = start + src.line(line).len();
    let mut out = Vec::new();
    for i in start..end {
        for kw in ["while", "for", "do"] {
            if src.word_at(i, kw) && !(kw == "while" && tails.contains(&i)) {
                out.push((i, kw));
            }
        }
    }
    out
}

/// The loop an invariant is located at: (offset of the keyword, keyword).
pub fn find_loop(src: &Source, inv: &Invariant) -> Result<(usize, &'static str), Rejection> {
    let loc = &inv.location;
    let (off, kw) = match loc.column {
        Some(col) => {
            let off = src.offset(loc.line, col).ok_or_else(|| {
                structure(format!(
                    "the invariant `{}` is at {loc}, outside the program",
                    inv.expr
                ))
            })?;
            let Some(kw) = ["while", "for", "do"]
                .into_iter()
                .find(|k| src.word_at(off, k))
            else {
                return Err(structure(format!(
                    "the invariant `{}` is at {loc}, which is not the first character of a loop keyword (for, while, do): `{}`",
                    inv.expr,
                    src.line(loc.line).trim()
                )));
            };
            if kw == "while" && src.do_while_tails().contains(&off) {
                return Err(structure(format!(
                    "the invariant `{}` is at {loc}, the `while` that ends a do-while loop: the loop's keyword is `do`",
                    inv.expr
                )));
            }
            (off, kw)
        }
        None => *loop_keywords_on_line(src, loc.line)
            .first()
            .ok_or_else(|| {
                structure(format!(
                    "the invariant `{}` is at {loc}, which has no loop keyword",
                    inv.expr
                ))
            })?,
    };
    if let Some(f) = &loc.function {
        let actual = src.function_at(off);
        if actual.as_deref() != Some(f.as_str()) {
            return Err(structure(format!(
                "the invariant `{}` at {loc} names function `{f}`, but the loop is in {actual:?}",
                inv.expr
            )));
        }
    }
    Ok((off, kw))
}

/// Reject invariant texts that are not side-effect-free C expressions without calls (the
/// formats' requirement), or that would not stay one expression when pasted into a condition.
pub fn check_expression(expr: &str) -> Result<(), Rejection> {
    let bad = |why: &str| Err(structure(format!("the invariant `{expr}` {why}")));
    let b = expr.as_bytes();
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b';' | b'{' | b'}' | b'"' | b'\'' => return bad("is not a C expression"),
            b'=' => {
                let prev = i.checked_sub(1).map(|j| b[j]);
                let next = b.get(i + 1).copied();
                let compare = matches!(prev, Some(b'=' | b'!' | b'<' | b'>')) || next == Some(b'=');
                let shift_assign = i >= 2 && (&b[i - 2..i] == b"<<" || &b[i - 2..i] == b">>");
                if !compare || shift_assign {
                    return bad("assigns");
                }
            }
            _ => {}
        }
        if depth < 0 {
            return bad("has unbalanced parentheses");
        }
    }
    if depth != 0 {
        return bad("has unbalanced parentheses");
    }
    if expr.contains("++") || expr.contains("--") {
        return bad("increments or decrements");
    }
    // A call: an identifier (not a keyword used like one) followed by `(`.
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let s = i;
            while i < b.len() && super::source::ident_byte(b[i]) {
                i += 1;
            }
            let word = &expr[s..i];
            let next = expr[i..].trim_start();
            let keyword = matches!(
                word,
                "sizeof" | "int" | "unsigned" | "signed" | "char" | "short" | "long" | "_Bool"
            );
            if next.starts_with('(') && !keyword {
                return bad(&format!("calls `{word}`"));
            }
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// How the checks are compiled into the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A failed check calls `reach_error` (checked together with the program's own errors).
    Joint,
    /// As `Joint`, and the program's own error functions abort instead (for `no-overflow`).
    Separate,
    /// A failed check calls the harness's `__witness_failed` (for gcc runs).
    Exec,
}

/// The functions that end a run with an error (bitmc's built-in error functions).
const ERROR_FUNCTIONS: [&str; 6] = [
    "reach_error",
    "__VERIFIER_error",
    "__VERIFIER_assert",
    "__assert_fail",
    "__assert_perror_fail",
    "__assert",
];

/// A loop's keyword (offset and text) and its invariants (number from 1, expression).
type LoopChecks<'a> = (usize, &'static str, Vec<(usize, &'a str)>);

/// A replacement in a text: (offset, bytes removed, text inserted).
pub type Edit = (usize, usize, String);

/// The edits that put `checks` (a C expression evaluated for its effect, true when the run
/// goes on) in front of the condition of the loop whose keyword `kw` is at `off`: in the
/// condition of a `while` or `do` loop, in the middle clause of a `for` loop (alone when that
/// clause is empty).
pub fn condition_edits(
    src: &Source,
    off: usize,
    kw: &str,
    checks: &str,
) -> Result<Vec<Edit>, Rejection> {
    let broken = || structure(format!("cannot read the loop at line {}", src.line_of(off)));
    let (open, close) = match kw {
        "do" => src.do_condition(off).ok_or_else(broken)?,
        _ => {
            let open = src.skip_blank(off + kw.len());
            if src.masked.get(open) != Some(&b'(') {
                return Err(broken());
            }
            (open, src.matching(open).ok_or_else(broken)?)
        }
    };
    let mut edits = Vec::new();
    if kw == "for" {
        let [s1, s2] = for_semicolons(src, open, close).ok_or_else(broken)?;
        if src.text[s1 + 1..s2].trim().is_empty() {
            edits.push((s1 + 1, s2 - s1 - 1, format!(" {checks}")));
        } else {
            edits.push((s1 + 1, 0, format!(" {checks} && (")));
            edits.push((s2, 0, ")".into()));
        }
    } else {
        edits.push((open + 1, 0, format!("{checks} && (")));
        edits.push((close, 0, ")".into()));
    }
    Ok(edits)
}

/// The two semicolons of the `for` header between the parentheses at `open` and `close`.
pub fn for_semicolons(src: &Source, open: usize, close: usize) -> Option<[usize; 2]> {
    let mut semis = Vec::new();
    let mut i = open + 1;
    while i < close {
        match src.masked[i] {
            b'(' | b'[' | b'{' => i = src.matching(i)?,
            b';' => semis.push(i),
            _ => {}
        }
        i += 1;
    }
    semis.try_into().ok()
}

/// `text` with the edits made (they must not overlap).
pub fn apply_edits(text: &str, mut edits: Vec<Edit>) -> String {
    let mut text = text.to_string();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    for (at, remove, insert) in edits {
        text.replace_range(at..at + remove, &insert);
    }
    text
}

/// The program text with the invariants' checks at their loops.
pub fn instrument(src: &Source, invs: &[Invariant], mode: Mode) -> Result<String, Rejection> {
    // The checks of each loop, in the witness's order.
    let mut loops: Vec<LoopChecks> = Vec::new();
    for (k, inv) in invs.iter().enumerate() {
        check_expression(&inv.expr)?;
        let (off, kw) = find_loop(src, inv)?;
        match loops.iter_mut().find(|l| l.0 == off) {
            Some(l) => l.2.push((k + 1, &inv.expr)),
            None => loops.push((off, kw, vec![(k + 1, &inv.expr)])),
        }
    }
    let mut edits: Vec<Edit> = Vec::new();
    for (off, kw, exprs) in &loops {
        let checks = exprs
            .iter()
            .map(|(k, e)| match mode {
                Mode::Exec => format!("__witness_check(({e}), {k})"),
                _ => format!("__witness_check(({e}))"),
            })
            .collect::<Vec<_>>()
            .join(" && ");
        edits.extend(condition_edits(src, *off, kw, &checks)?);
    }
    let text = apply_edits(&src.text, edits);
    let mut pre = String::from("/* invariant checks of the witness validator */\n");
    match mode {
        Mode::Exec => {
            pre.push_str("void __witness_failed(int which);\n");
            pre.push_str(
                "static int __witness_check(int ok, int which) { if (!ok) __witness_failed(which); return 1; }\n",
            );
        }
        Mode::Joint | Mode::Separate => {
            pre.push_str("void reach_error(void);\n");
            pre.push_str(
                "static int __witness_check(int ok) { if (!ok) reach_error(); return 1; }\n",
            );
        }
    }
    if mode == Mode::Separate {
        // The program's error functions stop the run instead. One it defines keeps its body
        // under another name (its calls of other error functions abort); one it only declares
        // becomes `abort()` (a function-like macro, so that no string argument reaches a
        // function bitmc would inline); `__VERIFIER_assert(c)` aborts when `c` is false.
        pre.push_str("void abort(void);\n");
        let defined: Vec<String> = src.functions().into_iter().map(|f| f.0).collect();
        for name in ERROR_FUNCTIONS {
            let line = if defined.iter().any(|d| d == name) {
                format!("#define {name} __witness_program_{name}\n")
            } else if name == "__VERIFIER_assert" {
                format!(
                    "static void __witness_program_{name}(int c) {{ if (!c) abort(); }}\n#define {name} __witness_program_{name}\n"
                )
            } else {
                format!("#define {name}(...) abort()\n")
            };
            pre.push_str(&line);
        }
    }
    Ok(pre + &text)
}

/// An answer of `bitmc verify`.
#[derive(Clone, Debug)]
pub enum Answer {
    True,
    /// FALSE, with the nondet values of the counterexample when bitmc prints replayable ones.
    False(Option<Vec<String>>),
    Unknown(String),
    Failed(String),
}

/// Run `bitmc verify` on a file.
pub fn bitmc(file: &Path, p: Property, dm: DataModel, engine: &str, secs: f64) -> Answer {
    let dir = scratch_dir("bitmc");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bitmc"));
    cmd.arg("verify")
        .arg(file)
        .args([
            "--property",
            p.name(),
            "--data-model",
            dm.arg(),
            "--engine",
            engine,
        ])
        .args(["--timeout", &format!("{secs}")]);
    let ran = run_limited(&mut cmd, Duration::from_secs_f64(secs + 30.0), &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let ran = match ran {
        Ok(r) => r,
        Err(e) => return Answer::Failed(format!("bitmc does not run: {e}")),
    };
    match ran.code {
        Some(0) => Answer::True,
        Some(10) => Answer::False(ran.stdout.lines().find_map(|l| {
            let list = l.strip_prefix("nondet values: [")?.strip_suffix(']')?;
            Some(
                list.split(',')
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
                    .collect(),
            )
        })),
        Some(20) => Answer::Unknown(ran.stdout.lines().next().unwrap_or("").to_string()),
        _ if ran.timed_out => Answer::Unknown("killed after its time limit".into()),
        code => Answer::Failed(format!(
            "exit {code:?}: {}",
            ran.stderr.lines().take(4).collect::<Vec<_>>().join(" | ")
        )),
    }
}

/// The engine the producer names, if any.
pub fn producer_engine(producer: &str) -> Option<&'static str> {
    let words: Vec<String> = producer
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .collect();
    PROVERS.into_iter().find(|e| words.iter().any(|w| w == e))
}

/// The engines that may check a witness: the provers other than its producer's.
pub fn checker_engines(producer: &str) -> Vec<&'static str> {
    let own = producer_engine(producer);
    PROVERS.into_iter().filter(|e| Some(*e) != own).collect()
}

/// The program instrumented with `invs` for execution (a failed check exits with 105),
/// compiled with the replay harness.
pub fn exec_build(w: &Witness, src: &Source, invs: &[Invariant]) -> Result<replay::Built, String> {
    let text = instrument(src, invs, Mode::Exec).map_err(|r| r.reason)?;
    let dir = scratch_dir("exec");
    let file = dir.join("instrumented.c");
    std::fs::write(&file, text).map_err(|e| e.to_string())?;
    let built = replay::build(&file, w.data_model, false);
    let _ = std::fs::remove_dir_all(&dir);
    built
}

/// One gcc run of the program instrumented for execution with `invs`.
fn exec_run(
    w: &Witness,
    src: &Source,
    invs: &[Invariant],
    values: &[String],
    opts: &Options,
) -> Result<replay::Run, String> {
    let built = exec_build(w, src, invs)?;
    Ok(replay::run(
        &built,
        values,
        Duration::from_secs_f64(opts.run_secs),
    ))
}

/// Check the invariants of a correctness witness (see the module documentation).
pub fn validate(w: &Witness, opts: &Options) -> Outcome {
    let text = match std::fs::read_to_string(&w.program) {
        Ok(t) => t,
        Err(e) => return Outcome::Rejected(Rejection::new(Check::Read, e.to_string())),
    };
    let src = Source::new(&text);
    let mode = match w.property {
        Property::UnreachCall => Mode::Joint,
        Property::NoOverflow => Mode::Separate,
    };
    let instrumented = match instrument(&src, &w.invariants, mode) {
        Ok(t) => t,
        Err(r) => return Outcome::Rejected(r),
    };
    if let Err(e) = gcc_works(w.data_model, false) {
        return Outcome::Unconfirmed(e);
    }
    let dir = scratch_dir("instrumented");
    let file = dir.join("instrumented.c");
    std::fs::write(&file, &instrumented).expect("the instrumented program is written");
    // The invariants must be expressions over variables in scope at their loops.
    let mut gcc = Command::new("gcc");
    gcc.args(["-fsyntax-only", "-w", "-std=gnu11", "-x", "c"]);
    if w.data_model == DataModel::Ilp32 {
        gcc.arg("-m32");
    }
    gcc.arg(&file);
    match gcc.output() {
        Ok(o) if !o.status.success() => {
            let msg = String::from_utf8_lossy(&o.stderr);
            let _ = std::fs::remove_dir_all(&dir);
            return Outcome::Rejected(Rejection::new(
                Check::Invariant,
                format!(
                    "the program with the invariants does not compile: {}",
                    msg.lines()
                        .filter(|l| l.contains("error"))
                        .take(3)
                        .collect::<Vec<_>>()
                        .join(" | ")
                ),
            ));
        }
        Ok(_) => {}
        Err(e) => return Outcome::Unconfirmed(format!("gcc does not run: {e}")),
    }
    // The check that shares no code with bitmc: the invariants hold on runs and carry the
    // proof by themselves.
    let tested = match super::induction::check(w, &src) {
        Ok(summary) => summary,
        Err(outcome) => {
            let _ = std::fs::remove_dir_all(&dir);
            return outcome;
        }
    };
    let runs: Vec<Property> = match w.property {
        Property::UnreachCall => vec![Property::UnreachCall],
        Property::NoOverflow => vec![Property::UnreachCall, Property::NoOverflow],
    };
    // The provers, then BMC: it proves nothing, but finds deep counterexamples the provers
    // may not reach in time.
    let mut engines = checker_engines(&w.producer);
    engines.push("bmc");
    let mut proved = Vec::new();
    for p in runs {
        let what = match (w.property, p) {
            (Property::NoOverflow, Property::UnreachCall) => "the invariants",
            (Property::NoOverflow, _) => "no-overflow of the program with the invariants",
            _ => "the invariants and unreach-call",
        };
        let mut tried = Vec::new();
        let mut done = false;
        for e in &engines {
            match bitmc(&file, p, w.data_model, e, opts.bitmc_secs) {
                Answer::True if *e == "bmc" => tried.push("bmc answered TRUE".into()),
                Answer::True => {
                    proved.push(format!("{what} by {e}"));
                    done = true;
                    break;
                }
                Answer::False(values) => {
                    let _ = std::fs::remove_dir_all(&dir);
                    let confirmed = match &values {
                        Some(v) if p == Property::UnreachCall => {
                            match exec_run(w, &src, &w.invariants, v, opts) {
                                Ok(r) if r.code == Some(105) => {
                                    let which = r.event.split_whitespace().nth(4);
                                    let at = which
                                        .and_then(|k| k.parse::<usize>().ok())
                                        .and_then(|k| w.invariants.get(k.wrapping_sub(1)).map(|i| (k, i)))
                                        .map(|(k, i)| format!(" {k}, at {}", i.location))
                                        .unwrap_or_default();
                                    format!(" (gcc run on its counterexample fails the check of invariant{at})")
                                }
                                Ok(r) if r.code == Some(101) => {
                                    " (gcc run on its counterexample reaches the program's error)".to_string()
                                }
                                Ok(r) => format!(
                                    " (the gcc run on its counterexample fails no check: {}, exit {:?})",
                                    r.event, r.code
                                ),
                                Err(e) => format!(" (not replayed: {e})"),
                            }
                        }
                        _ => String::new(),
                    };
                    return Outcome::Rejected(Rejection::new(
                        Check::Invariant,
                        format!(
                            "bitmc --engine {e} finds {what} FALSE{confirmed}; invariants: {}",
                            w.invariants
                                .iter()
                                .map(|i| format!("`{}` at {}", shorten(&i.expr), i.location))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                Answer::Unknown(why) => tried.push(format!("{e}: {why}")),
                Answer::Failed(why) => tried.push(format!("{e} failed: {why}")),
            }
        }
        if !done {
            let _ = std::fs::remove_dir_all(&dir);
            return Outcome::Unconfirmed(format!("{what} not proved: {}", tried.join("; ")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Outcome::Confirmed(format!(
        "{} invariant(s); {tested}; proved {}",
        w.invariants.len(),
        proved.join(", ")
    ))
}

/// An expression cut to 160 characters for messages.
fn shorten(e: &str) -> String {
    match e.char_indices().nth(160) {
        Some((i, _)) => format!("{}...", &e[..i]),
        None => e.to_string(),
    }
}

/// A witness's invariants without the trivial ones (`1`).
pub fn nontrivial(w: &Witness) -> usize {
    w.invariants.iter().filter(|i| !is_trivial(&i.expr)).count()
}
