//! The semantics oracle: every fixture without undefined behaviour is compiled with gcc (LP64,
//! and ILP32 with `-m32` where it works) together with the harness, and run on random nondet
//! sequences; the CFA interpreter must reach the same outcome (error reached, normal exit,
//! assume failed, nondet sequence exhausted). Runs that time out in the compiled program or
//! hit the interpreter's step limit are not compared.
//!
//! gcc is needed; when it is missing (or `-m32` does not work) the test says so and skips.

mod common;

use bitmc::cfa::{run_with, DataModel, Outcome, Property, RunOptions};
use bitmc::frontend::{lower_file, FrontendOptions};
use common::{fixture_files, header, Rng};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const RUNS_PER_FIXTURE: usize = 50;
const STEP_LIMIT: usize = 200_000;
const TIMEOUT: Duration = Duration::from_secs(3);

/// The harness: `BITMC_HARNESS`, else `fixtures/harness/harness.c`, else the fallback copy.
fn harness() -> PathBuf {
    if let Ok(h) = std::env::var("BITMC_HARNESS") {
        return PathBuf::from(h);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("fixtures/harness/harness.c");
    if shared.exists() {
        shared
    } else {
        root.join("tests/data/harness/harness.c")
    }
}

fn gcc_works(extra: &[&str], dir: &Path) -> bool {
    let src = dir.join("probe.c");
    if std::fs::write(&src, "#include <stdlib.h>\nint main(void){return 0;}\n").is_err() {
        return false;
    }
    Command::new("gcc")
        .args(extra)
        .arg(&src)
        .arg("-o")
        .arg(dir.join("probe"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn compile(fixture: &Path, dm: DataModel, dir: &Path, idx: usize) -> Result<PathBuf, String> {
    let bin = dir.join(format!("fixture{idx}-{}", dm.name()));
    let mut cmd = Command::new("gcc");
    cmd.args([
        "-std=gnu11",
        "-O0",
        "-fwrapv",
        "-w",
        "-Dmain=bitmc_fixture_main",
    ]);
    if dm == DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    cmd.arg(fixture).arg(harness()).arg("-o").arg(&bin);
    let out = cmd.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(bin)
}

/// Runs the binary; `None` on timeout.
fn execute(bin: &Path, seq: &[u64]) -> Option<i32> {
    let list: Vec<String> = seq.iter().map(|v| v.to_string()).collect();
    let mut child = Command::new(bin)
        .env("BITMC_NONDET", list.join(","))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        if let Ok(Some(st)) = child.try_wait() {
            return st.code();
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_micros(300));
    }
}

fn expected_code(o: &Outcome) -> Option<i32> {
    match o {
        Outcome::Error { .. } => Some(101),
        Outcome::Exit => Some(100),
        Outcome::AssumeFailed { .. } => Some(102),
        Outcome::NondetExhausted { .. } => Some(103),
        Outcome::Sink { .. } | Outcome::StepLimit { .. } => None,
    }
}

/// Checks one fixture under one data model; returns (outcome counts by exit code 100..=103,
/// failures).
fn check(path: &Path, dm: DataModel, dir: &Path, idx: usize) -> ([usize; 4], Vec<String>) {
    let name = path.display().to_string();
    let bin = match compile(path, dm, dir, idx) {
        Ok(b) => b,
        Err(e) => return ([0; 4], vec![format!("{name} ({dm}): gcc failed: {e}")]),
    };
    let opts = FrontendOptions {
        property: Property::UnreachCall,
        data_model: dm,
        lbe: idx.is_multiple_of(2),
        ..Default::default()
    };
    let lowered = match lower_file(path, &opts) {
        Ok(l) => l,
        Err(e) => return ([0; 4], vec![format!("{name} ({dm}): lowering failed: {e}")]),
    };
    let pool = std::fs::read_to_string(path)
        .map(|t| common::literal_pool(&t))
        .unwrap_or_default();
    let mut rng = Rng(
        0x9e37_79b9_7f4a_7c15 ^ (idx as u64 + 1).wrapping_mul(0x1234_5678_9abc_def1),
        pool,
    );
    let mut compared = [0usize; 4];
    let mut failures = Vec::new();
    for _ in 0..RUNS_PER_FIXTURE {
        let seq = rng.sequence(24);
        let vals: Vec<u128> = seq.iter().map(|&v| u128::from(v)).collect();
        let ro = RunOptions {
            step_limit: STEP_LIMIT,
            uninit_zero: true,
            record: false,
        };
        let (outcome, _) = run_with(&lowered.cfa, &vals, ro);
        let Some(want) = expected_code(&outcome) else {
            continue;
        };
        let Some(got) = execute(&bin, &seq) else {
            continue;
        };
        if let Some(c) = compared.get_mut((want - 100) as usize) {
            *c += 1;
        }
        if got != want {
            failures.push(format!(
                "{name} ({dm}): nondet {seq:?}: gcc exit {got}, interpreter {outcome:?} (exit {want})"
            ));
            break;
        }
    }
    (compared, failures)
}

#[test]
fn interpreter_agrees_with_gcc() {
    let dir = std::env::temp_dir().join(format!("bitmc-oracle-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        eprintln!("SKIPPED: cannot create {}", dir.display());
        return;
    }
    if !gcc_works(&[], &dir) {
        eprintln!(
            "SKIPPED: gcc is not installed (or cannot compile): the semantics oracle needs gcc"
        );
        return;
    }
    let mut models = vec![DataModel::Lp64];
    if gcc_works(&["-m32"], &dir) {
        models.push(DataModel::Ilp32);
    } else {
        eprintln!("NOTE: gcc -m32 does not work here: the ILP32 half of the oracle is skipped");
    }
    let mut jobs = Vec::new();
    let mut skipped = 0;
    for f in fixture_files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let h = header(&text);
        if h.unsupported || h.oracle_skip.is_some() {
            skipped += 1;
            continue;
        }
        for &dm in &models {
            jobs.push((f.clone(), dm));
        }
    }
    let next = Mutex::new(0usize);
    let results = Mutex::new(([0usize; 4], Vec::<String>::new()));
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = {
                    let Ok(mut n) = next.lock() else { return };
                    *n += 1;
                    *n - 1
                };
                let Some((f, dm)) = jobs.get(i) else { return };
                let (c, fails) = check(f, *dm, &dir, i);
                if let Ok(mut r) = results.lock() {
                    for (a, b) in r.0.iter_mut().zip(c) {
                        *a += b;
                    }
                    r.1.extend(fails);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let (compared, failures) = results.into_inner().unwrap_or_default();
    eprintln!(
        "oracle: {} fixture compilations ({} data models), {skipped} fixtures skipped; executions compared: \
         {} exit, {} error, {} assume failed, {} nondet exhausted",
        jobs.len(),
        models.len(),
        compared[0],
        compared[1],
        compared[2],
        compared[3]
    );
    assert!(
        jobs.is_empty() || compared.iter().sum::<usize>() > 0,
        "no execution was compared"
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
