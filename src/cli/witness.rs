//! `verify --witness` and `--svcomp`: which witness files to write, and writing them after the
//! verdict (the content comes from `bitmc::witness::svcomp`).

use super::program::Resolved;
use bitmc::cfa::Cfa;
use bitmc::verify::{ProgramVerdict, VerifyResult};
use bitmc::witness::svcomp::{correctness, violation, Content, Format, Metadata, Witness};
use std::path::PathBuf;

/// The witness files asked for, with their formats; an error for a name whose format is not
/// known, before any work is done.
pub fn requested(files: &[PathBuf], svcomp: bool) -> anyhow::Result<Vec<(PathBuf, Format)>> {
    let files: Vec<PathBuf> = if files.is_empty() && svcomp {
        vec!["witness.yml".into(), "witness.graphml".into()]
    } else {
        files.to_vec()
    };
    files
        .into_iter()
        .map(|f| match Format::of_path(&f) {
            Some(fmt) => Ok((f, fmt)),
            None => Err(anyhow::anyhow!(
                "{}: a witness file must end in .yml or .yaml (YAML format 2.0) or .graphml (GraphML format 1.0)",
                f.display()
            )),
        })
        .collect()
}

/// How many steps the run of a counterexample on the program as written may take.
const SOURCE_RUN_STEPS: usize = 4_000_000;

/// The waypoints of a violation witness, read off the counterexample's run. A counterexample
/// of the accelerated CFA (its steps jump over loops, with the iteration counts among their
/// values) is first expanded into its run on the program as written, unless that run is too
/// long.
fn violation_content(
    original: &Cfa,
    cfa: &Cfa,
    trace: &bitmc::verify::ProgramTrace,
) -> Option<(Content, Option<String>)> {
    let expanded;
    let (ran_on, steps) = match &trace.accelerated {
        None => (cfa, &trace.steps),
        Some(acc) => match trace.source_run(original, cfa, SOURCE_RUN_STEPS) {
            Ok(s) => {
                expanded = s;
                (original, &expanded)
            }
            // Too long to expand: the accelerated run's own values.
            Err(_) => (&**acc, &trace.steps),
        },
    };
    match violation::waypoints(original, ran_on, steps) {
        Ok((points, note)) => {
            if let Some(n) = &note {
                eprintln!("note: {n}");
            }
            Some((Content::Violation(points), note))
        }
        Err(e) => {
            eprintln!("note: no violation witness: {e}");
            None
        }
    }
}

/// Writes the witnesses of a TRUE or FALSE verdict; says on stderr what it could not write and
/// what a witness leaves out. An UNKNOWN verdict has no witness.
pub fn write(
    files: &[(PathBuf, Format)],
    r: &Resolved,
    original: &Cfa,
    cfa: &Cfa,
    result: &VerifyResult,
    engine: &str,
) {
    if files.is_empty() {
        return;
    }
    let content = match &result.verdict {
        ProgramVerdict::Unknown(_) => {
            eprintln!("note: no witness for an UNKNOWN verdict");
            return;
        }
        ProgramVerdict::True => Some(correctness_content(original, cfa, result)),
        ProgramVerdict::False(_, trace) => violation_content(original, cfa, trace),
    };
    let Some((content, note)) = content else {
        return;
    };
    let meta = match Metadata::new(
        &r.input,
        r.options.property,
        r.specification.as_deref(),
        r.options.data_model,
        engine,
    ) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("note: no witness: {e}");
            return;
        }
    };
    let w = Witness {
        meta,
        content,
        note,
    };
    for (path, format) in files {
        if let Err(e) = std::fs::write(path, w.render(*format)) {
            eprintln!("error: cannot write the witness {}: {e}", path.display());
        }
    }
}

/// The loop invariants of a TRUE verdict, and a note when the witness is weaker than the proof.
fn correctness_content(
    original: &Cfa,
    cfa: &Cfa,
    result: &VerifyResult,
) -> (Content, Option<String>) {
    let (inv, source) = match (&result.invariant, &result.proved_invariants) {
        (Some(inv), _) => (inv, "the proof's inductive invariant"),
        (None, Some(inv)) => (
            inv,
            "the candidate invariants k-induction was given (each proved; together with \
             k-induction they prove the program, alone they need not be inductive)",
        ),
        (None, None) => {
            let note = "the proof has no invariant (it is by k-induction or a bound on the \
                        diameter), so the witness states no loop invariant";
            eprintln!("note: {note}");
            return (Content::Correctness(Vec::new()), Some(note.to_string()));
        }
    };
    let (invs, dropped) = correctness::loop_invariants(original, cfa, inv);
    let mut note = format!("loop invariants from {source}");
    if dropped.conjuncts > 0 || dropped.loops > 0 {
        note.push_str(&format!(
            "; {} conjuncts left out (over variables that cannot be named in C at the loop head), {} loop heads without an invariant",
            dropped.conjuncts, dropped.loops
        ));
    }
    (Content::Correctness(invs), Some(note))
}
