//! `bitmc cfa` through the binary: text and DOT output for every fixture (the DOT renders with
//! Graphviz `dot -Tsvg` when it is installed), the location totals with and without large-block
//! encoding, and the error exit code for unsupported programs.

mod common;

use common::{fixture_files, header};
use std::io::Write;
use std::process::{Command, Stdio};

fn bitmc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bitmc"))
        .args(args)
        .output()
        .expect("bitmc runs")
}

fn locations(text: &str) -> Option<usize> {
    let first = text.lines().next()?;
    first
        .strip_prefix("CFA: ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn dot_available() -> bool {
    Command::new("dot")
        .arg("-V")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn renders(dot_text: &[u8]) -> Result<(), String> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut i) = child.stdin.take() {
        i.write_all(dot_text).map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() && out.stdout.starts_with(b"<?xml") {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn cfa_command_on_every_fixture() {
    let has_dot = dot_available();
    if !has_dot {
        common::oracle_missing("Graphviz `dot` is not installed: DOT output is not rendered");
    }
    // Per fixture: `None` for an unsupported one, else its location counts with and without
    // large-block encoding. Two fixtures at a time.
    let files = fixture_files();
    let counts = common::parallel(&files, |_, f| {
        let text = std::fs::read_to_string(f).ok()?;
        let h = header(&text);
        let path = f.to_string_lossy().to_string();
        if h.unsupported {
            let out = bitmc(&["cfa", &path]);
            assert_eq!(out.status.code(), Some(1), "{path}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                // gcc's form, once: `file:line:col: error: unsupported: …`.
                err.contains(": error: unsupported: ") && err.matches("error:").count() == 1,
                "{path}: {err}"
            );
            return None;
        }
        let out = bitmc(&["cfa", &path]);
        assert!(
            out.status.success(),
            "{path}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let with_lbe = locations(&String::from_utf8_lossy(&out.stdout)).expect("location count");
        let out = bitmc(&["cfa", "--no-lbe", &path]);
        assert!(out.status.success(), "{path}");
        let without = locations(&String::from_utf8_lossy(&out.stdout)).expect("location count");
        for prop in ["unreach-call", "valid-index"] {
            let out = bitmc(&["cfa", "--dot", "--property", prop, &path]);
            assert!(out.status.success(), "{path} {prop}");
            assert!(out.stdout.starts_with(b"digraph"), "{path}");
            if has_dot && prop == "unreach-call" {
                if let Err(e) = renders(&out.stdout) {
                    panic!("{path}: dot -Tsvg failed: {e}");
                }
            }
        }
        Some((with_lbe, without))
    });
    let counts: Vec<(usize, usize)> = counts.into_iter().flatten().collect();
    let n = counts.len();
    let with_lbe: usize = counts.iter().map(|c| c.0).sum();
    let without: usize = counts.iter().map(|c| c.1).sum();
    eprintln!("{n} fixtures: {with_lbe} locations with large-block encoding, {without} without");
    assert!(n == 0 || with_lbe < without);
}

#[test]
fn missing_preprocessor_is_one_line() {
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/c/control/loops.c");
    let out = Command::new(env!("CARGO_BIN_EXE_bitmc"))
        .args(["cfa", &f.to_string_lossy()])
        .env("PATH", "/nonexistent")
        .output()
        .expect("bitmc runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no C preprocessor found"), "{err}");
}

#[test]
fn usage_errors() {
    let out = bitmc(&["cfa", "--property", "termination", "x.c"]);
    assert_eq!(out.status.code(), Some(2));
    let out = bitmc(&["cfa", "/nonexistent/file.c"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/file.c") && err.contains("no such file"),
        "{err}"
    );
}

#[test]
fn accelerate_prints_the_jumps_bmc_may_take() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/c/loops");
    let counter = root.join("deep_even_counter.c");
    let out = bitmc(&["cfa", "--accelerate", &counter.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("loops at L3 accelerated"), "{err}");
    assert!(text.contains("#iterations := havoc (iterations)"), "{text}");
    // The same program without the option has no jump.
    let plain = bitmc(&["cfa", &counter.to_string_lossy()]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("#iterations"));
    // A loop whose guard `x != 9` may fail between the ends of a jump gets none.
    let not_interval = root.join("counter_guard_not_interval.c");
    let out = bitmc(&["cfa", "--accelerate", &not_interval.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no loop folded or accelerated"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("#iterations"));
    // An inner loop that runs 8 times is folded into the outer loop's edge, which then jumps.
    let nested = root.join("nested_fixed_inner.c");
    let out = bitmc(&["cfa", "--accelerate", &nested.to_string_lossy()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("loops of a fixed trip count at L4 folded; loops at L3 accelerated"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.matches("main::y := (bvadd main::y").count(),
        8,
        "{text}"
    );
    assert!(!text.contains("L4 ["), "{text}");
}
