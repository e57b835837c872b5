//! The public SV-COMP sample (`../shared/bench/svcomp`, outside the repository): every task
//! lowers to a CFA under every property or fails with one `unsupported:` message, never with a
//! panic or an internal error; the interpreter runs on each CFA. Skipped (with a message) when
//! the sample is not present, a failure under `CI=true`.

mod common;

use bitmc::cfa::{run_with, DataModel, Property, RunOptions};
use bitmc::frontend::{lower_preprocessed, parse::preprocess, FrontendError, FrontendOptions};
use common::Rng;
use std::path::{Path, PathBuf};

fn svcomp_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("BITMC_SVCOMP_DIR") {
        return Some(PathBuf::from(d));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        root.join("../shared/bench/svcomp"),
        root.join("../../shared/bench/svcomp"),
    ]
    .into_iter()
    .find(|p| p.join("tasks.txt").exists())
}

/// The C input named by a task file.
fn input_of(task: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(task).ok()?;
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("input_files:"))?;
    let name = line
        .split_once(':')?
        .1
        .trim()
        .trim_matches(|c| c == '\'' || c == '"');
    Some(task.parent()?.join(name))
}

#[test]
fn svcomp_tasks_lower_or_are_rejected_cleanly() {
    let Some(dir) = svcomp_dir() else {
        common::bench_missing("the SV-COMP sample (../shared/bench/svcomp) is not present");
        return;
    };
    let list = std::fs::read_to_string(dir.join("tasks.txt")).expect("tasks.txt is readable");
    let tasks: Vec<&str> = list.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut lowered = 0;
    let mut rejected = Vec::new();
    let mut bad = Vec::new();
    let mut locs = (0usize, 0usize);
    for (i, t) in tasks.iter().enumerate() {
        let Some(input) = input_of(&dir.join(t)) else {
            bad.push(format!("{t}: no input file"));
            continue;
        };
        let mut ok = true;
        let text = match preprocess(&input, DataModel::Ilp32) {
            Ok(t) => t,
            Err(e) => {
                bad.push(format!("{t}: {e}"));
                continue;
            }
        };
        let name = input.display().to_string();
        for prop in Property::ALL {
            for lbe in [true, false] {
                let opts = FrontendOptions {
                    property: prop,
                    data_model: DataModel::Ilp32,
                    lbe,
                    ..Default::default()
                };
                match lower_preprocessed(text.clone(), &name, &opts) {
                    Ok(l) => {
                        if prop == Property::UnreachCall {
                            if lbe {
                                locs.0 += l.cfa.locations.len();
                            } else {
                                locs.1 += l.cfa.locations.len();
                            }
                        }
                        let mut rng = Rng(i as u64 + 1, Vec::new());
                        for _ in 0..5 {
                            let seq: Vec<u128> =
                                rng.sequence(30).into_iter().map(u128::from).collect();
                            let ro = RunOptions {
                                step_limit: 20_000,
                                uninit_zero: false,
                                record: true,
                            };
                            let _ = run_with(&l.cfa, &seq, ro);
                        }
                    }
                    Err(e @ FrontendError::Unsupported { .. }) => {
                        ok = false;
                        if prop == Property::UnreachCall && lbe {
                            rejected.push(format!("{t}: {e}"));
                        }
                    }
                    Err(e) => {
                        ok = false;
                        bad.push(format!("{t} [{prop}]: {e}"));
                    }
                }
            }
        }
        if ok {
            lowered += 1;
        }
    }
    eprintln!(
        "SV-COMP sample: {lowered} of {} tasks lower under every property; locations (unreach-call) {} with \
         large-block encoding, {} without",
        tasks.len(),
        locs.0,
        locs.1
    );
    for r in &rejected {
        eprintln!("  rejected: {r}");
    }
    assert!(
        bad.is_empty(),
        "errors other than `unsupported`:\n{}",
        bad.join("\n")
    );
    assert!(
        lowered * 20 >= tasks.len() * 19,
        "only {lowered} of {} tasks lower",
        tasks.len()
    );
}
