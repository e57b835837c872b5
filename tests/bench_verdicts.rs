//! The expected verdicts of the public benchmark tasks (`../shared/bench/svcomp` and
//! `../shared/bench/control`, beside the checkout): `bitmc verify TASK.yml --property P` with a
//! short time limit on every (task, property) pair whose expected verdict the task file gives
//! for `unreach-call` or `no-overflow`. No answer may be wrong, and at least a measured number
//! must be solved in time. The expected verdicts are read here from the task files (not through
//! bitmc's task reader), and the answer from the verdict line bitmc prints.
//!
//! `BITMC_BENCH_SECS` sets the time limit per run (default 5 s). Without the benchmark inputs
//! the test skips with a message, and fails under `CI=true`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One (task, property) pair with its expected verdict.
struct Pair {
    task: PathBuf,
    property: &'static str,
    expected: bool,
}

/// The properties of a task file that bitmc checks, with their expected verdicts: the
/// `property_file` entries naming `unreach-call.prp` or `no-overflow.prp` and followed by an
/// `expected_verdict`.
fn pairs_of(task: &Path) -> Vec<Pair> {
    let text = std::fs::read_to_string(task).expect("readable task file");
    let mut out = Vec::new();
    let mut current: Option<&'static str> = None;
    for line in text.lines() {
        let l = line.trim().trim_start_matches("- ").trim();
        if let Some(f) = l.strip_prefix("property_file:") {
            current = [
                ("unreach-call", "unreach-call.prp"),
                ("no-overflow", "no-overflow.prp"),
            ]
            .into_iter()
            .find(|(_, file)| f.trim().ends_with(file))
            .map(|(p, _)| p);
        } else if let Some(v) = l.strip_prefix("expected_verdict:") {
            if let Some(p) = current.take() {
                let expected = match v.trim() {
                    "true" => true,
                    "false" => false,
                    other => panic!("{}: expected_verdict `{other}`", task.display()),
                };
                out.push(Pair {
                    task: task.to_path_buf(),
                    property: p,
                    expected,
                });
            }
        }
    }
    out
}

/// Every pair of the task files under `dir` (recursively), sorted by task.
fn pairs(dir: &Path) -> Vec<Pair> {
    let mut files = Vec::new();
    common::collect(dir, "yml", &mut files);
    files.sort();
    files.iter().flat_map(|f| pairs_of(f)).collect()
}

/// bitmc's answer: `Some(true)` TRUE, `Some(false)` FALSE of the property, `None` UNKNOWN or
/// killed; `Err` for anything else (a crash, another exit code, a verdict line that does not
/// match the exit code).
fn run(p: &Pair, secs: f64) -> Result<Option<bool>, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitmc"))
        .arg("verify")
        .arg(&p.task)
        .args(["--property", p.property, "--timeout", &secs.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("bitmc does not run: {e}"))?;
    // The run prints little until its verdict; a trace fits the pipe or is read below.
    let stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let status = common::wait_at_most(
        &mut child,
        Duration::from_secs_f64(secs + 20.0),
        Duration::from_millis(20),
    );
    let out = reader.join().unwrap_or_default();
    let Some(status) = status else {
        return Ok(None);
    };
    let last = out.lines().last().unwrap_or("");
    match (status.code(), last) {
        (Some(0), "TRUE") => Ok(Some(true)),
        (Some(10), l) if l == format!("FALSE({})", p.property) => Ok(Some(false)),
        (Some(20), "UNKNOWN") => Ok(None),
        (code, l) => Err(format!("exit {code:?}, last line `{l}`")),
    }
}

#[test]
fn bench_tasks_give_their_expected_verdicts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    let mut all = Vec::new();
    for sub in ["svcomp", "control"] {
        let d = root.join(sub);
        if !d.is_dir() {
            common::bench_missing(&format!("{} is absent", d.display()));
            return;
        }
        all.extend(pairs(&d));
    }
    let secs: f64 = std::env::var("BITMC_BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    let start = Instant::now();
    let (mut solved, mut unknown) = (0usize, Vec::new());
    let mut solved_control = 0usize;
    let mut failures = Vec::new();
    // One run at a time: the portfolio's members take both cores.
    for p in &all {
        let t = Instant::now();
        let name = format!(
            "{} ({})",
            p.task.strip_prefix(&root).unwrap_or(&p.task).display(),
            p.property
        );
        match run(p, secs) {
            Ok(Some(v)) if v == p.expected => {
                solved += 1;
                solved_control += usize::from(p.task.starts_with(root.join("control")));
            }
            Ok(Some(v)) => failures.push(format!("WRONG: {name}: {v}, expected {}", p.expected)),
            Ok(None) => unknown.push(name.clone()),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
        eprintln!("{name}: {:.1} s", t.elapsed().as_secs_f64());
    }
    let control = all
        .iter()
        .filter(|p| p.task.starts_with(root.join("control")))
        .count();
    eprintln!(
        "bench: {solved} of {} pairs solved within {secs} s each ({solved_control} of the {control} \
         of control), {} unknown, {} failures ({:.0} s)",
        all.len(),
        unknown.len(),
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    for u in &unknown {
        eprintln!("  unknown: {u}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 92 pairs (75 of svcomp, 17 of control). Measured at 5 s each, one run at a time beside
    // another test binary on 2 cores: 56 solved, 0 wrong (at 60 s, 80 of 89); the bar leaves
    // a margin for a loaded machine. The svcomp pairs alone can meet the total bar (51 of them
    // solved in a run that solved 63), so that a product change making every control task
    // UNKNOWN passed; the control pairs have a bar of their own (measured: 12 of the 17
    // solved, 10 of them in under 2 s).
    assert!(all.len() >= 92, "only {} pairs", all.len());
    assert!(control >= 17, "only {control} control pairs");
    let bar = if secs >= 5.0 { MIN_SOLVED } else { 0 };
    assert!(
        solved >= bar,
        "only {solved} of {} pairs solved (at least {bar} expected within {secs} s)",
        all.len()
    );
    let bar = if secs >= 5.0 { MIN_SOLVED_CONTROL } else { 0 };
    assert!(
        solved_control >= bar,
        "only {solved_control} of the {control} control pairs solved (at least {bar} expected \
         within {secs} s)"
    );
}

/// The least number of pairs solved within 5 s each.
const MIN_SOLVED: usize = 50;

/// The least number of control pairs (`../shared/bench/control`) solved within 5 s each.
const MIN_SOLVED_CONTROL: usize = 8;
