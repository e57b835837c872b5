//! Helpers shared by the integration tests: running the `bitmc` binary and locating the public
//! benchmark inputs (which live outside the repository and may be absent).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The result of one run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The last line of standard output.
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }
}

/// Run `bitmc` with the given arguments.
pub fn bitmc(args: &[&str]) -> Run {
    bitmc_in(Path::new("."), args)
}

/// Run `bitmc` with the given arguments in the working directory `dir`.
pub fn bitmc_in(dir: &Path, args: &[&str]) -> Run {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_bitmc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the bitmc binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The directory of the public benchmark inputs, if present (a failure when absent under
/// `BITMC_REQUIRE_BENCH=1`, which `.ci/run` sets when `../shared/bench` exists).
pub fn bench_dir(sub: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/bench")
        .join(sub);
    if p.is_dir() {
        Some(p)
    } else {
        let ci = std::env::var("BITMC_REQUIRE_BENCH").is_ok_and(|v| v == "1");
        assert!(
            !ci,
            "{} is absent; with BITMC_REQUIRE_BENCH=1 (set by .ci/run when ../shared/bench exists) the benchmark inputs must all be there",
            p.display()
        );
        eprintln!(
            "note: {} is absent; skipping the tests that use it",
            p.display()
        );
        None
    }
}

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bitmc-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temporary directory");
    d
}

/// The rows of a tab-separated file with a header line, as maps from column name to value.
pub fn read_tsv(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).expect("readable TSV");
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap_or("")
        .split('\t')
        .map(String::from)
        .collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split('\t').map(String::from))
                .collect()
        })
        .collect()
}
