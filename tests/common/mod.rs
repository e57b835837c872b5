//! Shared helpers of the front-end tests: finding fixtures and reading their header comments,
//! and a small deterministic random generator.
#![allow(dead_code)]

use bitmc::cfa::DataModel;
use std::path::{Path, PathBuf};

/// The fixture directories: the corpus `fixtures/c`, this crate's `tests/data/c`, and the
/// directories in `BITMC_EXTRA_FIXTURES` (separated by `:`).
pub fn fixture_roots() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("fixtures/c"), root.join("tests/data/c")];
    if let Ok(extra) = std::env::var("BITMC_EXTRA_FIXTURES") {
        roots.extend(
            extra
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from),
        );
    }
    roots
}

/// The FALSE fixtures whose violation lies too deep for the default portfolio within the
/// tests' limit on loaded cores: thousands of iterations of a loop that no jump covers
/// (`mod_sum_reach.c`, 3000: a remainder is not polynomial), a jump by cubic closed forms
/// whose overflow BMC finds in about a minute (`poly_square_sum_wrap.c`, after 1100), or a
/// hundred iterations of products with a wrapped `short` (`poly_cubes_short_false.c`, 106).
/// (`sum_overflow_late.c`, 65536 iterations deep, is found through a jump by closed forms.)
pub const DEEP_VIOLATIONS: [&str; 3] = [
    "loops/mod_sum_reach.c",
    "loops/poly_square_sum_wrap.c",
    "loops/poly_cubes_short_false.c",
];

/// The time limits, in seconds, of a `bitmc verify` run that is to answer FALSE in the tests
/// that check what a FALSE answer prints (traces, harnesses): a first run, and a second for a
/// run that gave no verdict in the first. Those tests run two portfolios at once on the
/// cores they have, each racing up to five members, so a violation the default portfolio finds
/// in 10-14 s on two idle cores (`tests/data/c/control/nested.c`) can take more than 20 s
/// there; how fast bitmc finds violations is measured by `bitmc bench`, not by these tests.
pub const FALSE_RUN_SECS: [&str; 2] = ["20", "60"];

/// Runs `run` with the first limit of [`FALSE_RUN_SECS`] and, when `unknown` says it gave no
/// verdict and `name` is not one of [`DEEP_VIOLATIONS`], once more with the second; the last
/// run.
pub fn run_for_false<R>(name: &str, run: impl Fn(&str) -> R, unknown: impl Fn(&R) -> bool) -> R {
    let first = run(FALSE_RUN_SECS[0]);
    if !unknown(&first) || DEEP_VIOLATIONS.iter().any(|d| name.contains(d)) {
        return first;
    }
    run(FALSE_RUN_SECS[1])
}

/// Every `.c` file under the fixture directories, sorted.
pub fn fixture_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for r in fixture_roots() {
        collect(&r, "c", &mut out);
    }
    out.sort();
    out
}

/// Every file under `dir` (recursively) whose extension is `ext`, appended to `out`.
pub fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Whether the tests run under CI (`CI=true`), where every oracle must be installed (`.ci/run`
/// installs them): a test that would skip for lack of a tool fails instead.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// An oracle (a tool a test compares against) is missing or does not work: a failure under
/// CI, a skip that says so otherwise.
pub fn oracle_missing(what: &str) {
    assert!(
        !under_ci(),
        "{what}; under CI=true every oracle must be installed (see .ci/run)"
    );
    eprintln!("SKIPPED: {what}");
}

/// The public benchmark inputs (`../shared/bench`, outside the repository) are missing: a
/// failure under `BITMC_REQUIRE_BENCH=1`, which `.ci/run` sets when the directory exists (so
/// that a part missing from it is noticed), a skip that says so otherwise.
pub fn bench_missing(what: &str) {
    assert!(
        !std::env::var("BITMC_REQUIRE_BENCH").is_ok_and(|v| v == "1"),
        "{what}; with BITMC_REQUIRE_BENCH=1 the benchmark inputs must all be there"
    );
    eprintln!("SKIPPED: {what}");
}

/// Wait for `child` at most `limit`, polling every `poll`; `None` (and the child killed) when
/// it is still running then.
pub fn wait_at_most(
    child: &mut std::process::Child,
    limit: std::time::Duration,
    poll: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let start = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if start.elapsed() <= limit => std::thread::sleep(poll),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// `f` of every item (with its index), on two threads taking the items in order; the results
/// in the items' order.
pub fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = std::sync::Mutex::new(0usize);
    let out = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(item) = items.get(k) else { break };
                let r = f(k, item);
                out.lock().unwrap().push((k, r));
            });
        }
    });
    let mut v = out.into_inner().unwrap();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

/// The gcc harness of the semantics oracle: `BITMC_HARNESS`, else
/// `fixtures/harness/harness.c`, else the fallback copy in `tests/data`.
pub fn harness() -> PathBuf {
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

/// gcc's flags for a program linked with the harness under data model `dm`.
pub fn gcc_flags(dm: DataModel) -> Vec<&'static str> {
    let mut f = vec![
        "-std=gnu11",
        "-O0",
        "-fwrapv",
        "-w",
        "-Dmain=bitmc_fixture_main",
    ];
    if dm == DataModel::Ilp32 {
        f.push("-m32");
    }
    f
}

/// Runs `f`, raising `intr` if it has not returned after `limit` seconds.
pub fn interrupt_after<R>(intr: &bitmc::sat::Interrupter, limit: f64, f: impl FnOnce() -> R) -> R {
    let intr = intr.clone();
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        s.spawn(move || {
            if rx
                .recv_timeout(std::time::Duration::from_secs_f64(limit))
                .is_err()
            {
                intr.interrupt();
            }
        });
        let r = f();
        drop(tx);
        r
    })
}

pub use bitmc::task::header::Header;

/// Reads the leading comment lines of a fixture; a malformed `expect`, `expect(lp64)` or
/// `witness` line panics.
pub fn header(text: &str) -> Header {
    Header::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// xorshift64*: a small deterministic generator for test inputs, with an optional pool of
/// values taken from the program text (its integer literals, their neighbours and negations).
pub struct Rng(pub u64, pub Vec<u64>);

/// The integer literals of a C text, with their neighbours and negations.
pub fn literal_pool(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for tok in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let t = tok.trim_end_matches(['u', 'U', 'l', 'L']);
        let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            u64::from_str_radix(h, 16).ok()
        } else {
            t.parse::<u64>().ok()
        };
        if let Some(v) = v {
            for x in [v, v.wrapping_add(1), v.wrapping_sub(1), v.wrapping_neg()] {
                if !out.contains(&x) {
                    out.push(x);
                }
            }
        }
    }
    out
}

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }

    /// A value that is often at an interesting boundary.
    pub fn interesting(&mut self) -> u64 {
        const SPECIAL: [u64; 16] = [
            0,
            1,
            2,
            3,
            5,
            7,
            10,
            0x7f,
            0x80,
            0xff,
            0x7fff,
            0xffff,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            u64::MAX,
        ];
        match self.below(5) {
            0 => SPECIAL[self.below(16) as usize],
            4 if !self.1.is_empty() => {
                let i = self.below(self.1.len() as u64) as usize;
                self.1.get(i).copied().unwrap_or(0)
            }
            4 => self.below(10),
            1 => self.below(50),
            2 => 0u64.wrapping_sub(self.below(50)),
            _ => self.next(),
        }
    }

    /// `n` nondet values: small ones, boundaries, and values from the program text.
    pub fn values(&mut self, n: usize) -> Vec<u128> {
        (0..n)
            .map(|_| {
                if self.below(3) == 0 {
                    self.below(8) as u128
                } else {
                    self.interesting() as u128
                }
            })
            .collect()
    }

    /// A nondet sequence of random length.
    pub fn sequence(&mut self, max_len: u64) -> Vec<u64> {
        let n = self.below(max_len + 1);
        (0..n).map(|_| self.interesting()).collect()
    }
}
