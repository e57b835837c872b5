//! The AIGER exports against ABC (`berkeley-abc`): ABC must read the binary AIGER that
//! `bitmc aiger` writes for every C fixture (unique symbols: ABC rejects repeated input or
//! latch names), and where ABC's `pdr` decides the exported system within the limit, its
//! verdict must be the fixture's expected `unreach-call` verdict (under ILP32, and under LP64 for the
//! fixtures whose verdicts differ there). Constraints are folded into
//! the property first (`fold`): ABC's `pdr` ignores constraint outputs otherwise.
//!
//! ABC is an oracle: when it is missing the test says so and skips, except under `CI=true`
//! (where `.ci/run` installs it), where that is a failure. `BITMC_ABC` names another ABC
//! binary; `BITMC_ABC_SECS` sets ABC's time limit per fixture (default 1 s: 156 of 203
//! decided, in about a minute; 10 s: 160 decided, 146 of them compared, in 7.5 minutes).

mod common;

use bitmc::cfa::{DataModel, Property};
use common::{fixture_files, header, oracle_missing};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

fn abc() -> String {
    std::env::var("BITMC_ABC").unwrap_or_else(|_| "berkeley-abc".into())
}

fn abc_secs() -> u64 {
    std::env::var("BITMC_ABC_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Run ABC on `script`; its output, or `None` when it had to be killed (`limit` plus a grace
/// period: ABC's own limits are approximate).
fn run_abc(script: &str, limit: Duration) -> Option<String> {
    let mut child = Command::new(abc())
        .args(["-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    // ABC's output fits the pipes' buffers (it prints a few lines).
    common::wait_at_most(
        &mut child,
        limit + Duration::from_secs(10),
        Duration::from_millis(5),
    )?;
    let out = child.wait_with_output().ok()?;
    Some(format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// What happened to one fixture.
enum Outcome {
    /// ABC read it, and its pdr said this (`None`: undecided within the limit).
    Read(Option<bool>),
    /// Something failed: the message.
    Failed(String),
}

/// Export `fixture` with `bitmc aiger`, read it with ABC, run ABC's pdr on it. `compare`:
/// whether the export has the fixture's verdict (it has no UNKNOWN sink, which the export
/// does not encode as a goal).
fn check(fixture: &Path, dm: DataModel, out: &Path, limit: u64) -> (Outcome, bool) {
    let name = format!("{} ({dm})", fixture.display());
    let exported = Command::new(env!("CARGO_BIN_EXE_bitmc"))
        .arg("aiger")
        .args(["--data-model", dm.name()])
        .arg(fixture)
        .arg("-o")
        .arg(out)
        .output();
    let exported = match exported {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            return (
                Outcome::Failed(format!("{name}: bitmc aiger failed: {err}")),
                false,
            );
        }
        Err(e) => return (Outcome::Failed(format!("{name}: bitmc: {e}")), false),
    };
    let compare = !String::from_utf8_lossy(&exported.stderr).contains("sink");
    let file = out.display();
    let Some(read) = run_abc(&format!("read_aiger {file}; print_stats"), Duration::ZERO) else {
        return (Outcome::Failed(format!("{name}: ABC did not end")), compare);
    };
    let rejected = ["Repeated", "failed", "Error", "Wrong"];
    if !read.contains("i/o =") || rejected.iter().any(|r| read.contains(r)) {
        return (
            Outcome::Failed(format!("{name}: ABC does not read {file}:\n{read}")),
            compare,
        );
    }
    let script = format!("read_aiger {file}; fold; pdr -T {limit}; print_status");
    let verdict = run_abc(&script, Duration::from_secs(limit)).and_then(|o| {
        if o.contains("Property proved") {
            Some(true)
        } else if o.contains("was asserted") {
            Some(false)
        } else {
            None
        }
    });
    (Outcome::Read(verdict), compare)
}

#[test]
fn abc_reads_every_export_and_agrees_where_it_decides() {
    let probe = Command::new(abc())
        .args(["-c", "quit"])
        .stdin(Stdio::null())
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        oracle_missing(&format!(
            "ABC (`{}`) is not installed (Debian: apt-get install berkeley-abc): the AIGER exports are not checked",
            abc()
        ));
        return;
    }
    let dir = std::env::temp_dir().join(format!("bitmc-abc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let mut jobs: Vec<(PathBuf, bool, DataModel)> = Vec::new();
    for f in fixture_files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let h = header(&text);
        if h.unsupported {
            continue;
        }
        if let Some(v) = h.verdict(Property::UnreachCall, DataModel::Ilp32) {
            jobs.push((f.clone(), v, DataModel::Ilp32));
        }
        // The fixtures whose verdicts differ under LP64, exported under LP64 too.
        if !h.expect_lp64.is_empty() {
            if let Some(v) = h.verdict(Property::UnreachCall, DataModel::Lp64) {
                jobs.push((f, v, DataModel::Lp64));
            }
        }
    }
    let limit = abc_secs();
    let next = Mutex::new(0usize);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some((f, expected, dm)) = jobs.get(i) else {
                    return;
                };
                let out = dir.join(format!("f{i}.aig"));
                let (outcome, compare) = check(f, *dm, &out, limit);
                results
                    .lock()
                    .unwrap()
                    .push((f.clone(), *expected, *dm, outcome, compare));
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let (mut read, mut decided, mut compared) = (0, 0, 0);
    let mut lp64 = (0, 0);
    let mut failures = Vec::new();
    for (f, expected, dm, outcome, compare) in results.into_inner().unwrap() {
        // An export with UNKNOWN sinks (not goals of the exported system) is not compared.
        lp64.0 += usize::from(dm == DataModel::Lp64 && compare);
        match outcome {
            Outcome::Failed(e) => failures.push(e),
            Outcome::Read(v) => {
                read += 1;
                let Some(v) = v else { continue };
                decided += 1;
                if !compare {
                    continue;
                }
                compared += 1;
                lp64.1 += usize::from(dm == DataModel::Lp64);
                if v != expected {
                    failures.push(format!(
                        "{} ({dm}): ABC's pdr says {}, the fixture {}",
                        f.display(),
                        if v { "TRUE" } else { "FALSE" },
                        if expected { "TRUE" } else { "FALSE" }
                    ));
                }
            }
        }
    }
    eprintln!(
        "ABC: {read} of {} exports read; pdr decided {decided} within {limit} s, {compared} \
         compared with the expected verdict",
        jobs.len()
    );
    eprintln!("ABC on LP64 exports: {} of {} compared", lp64.1, lp64.0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every fixture with an LP64 expectation of its own and without UNKNOWN sinks is decided
    // (12 of 12, each well within the limit).
    assert!(
        lp64.0 >= 10 && lp64.1 == lp64.0,
        "LP64 exports: {} of {} compared",
        lp64.1,
        lp64.0
    );
    assert!(jobs.len() > 150, "only {} fixtures exported", jobs.len());
    // 156 of 203 decided within 1 s, 144 of them without sinks; the bar leaves room for a
    // slower machine.
    assert!(
        compared * 100 >= jobs.len() * 50,
        "only {compared} of {} verdicts compared",
        jobs.len()
    );
}
