//! Shared helpers of the front-end tests: finding fixtures and reading their header comments,
//! and a small deterministic random generator.
#![allow(dead_code)]

use bitmc::cfa::{DataModel, Property};
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

/// The header of a fixture.
#[derive(Debug, Default, Clone)]
pub struct Header {
    /// Expected verdicts under ILP32: (property, holds).
    pub expect: Vec<(Property, bool)>,
    /// Overrides under LP64.
    pub expect_lp64: Vec<(Property, bool)>,
    /// `// oracle: skip <reason>`.
    pub oracle_skip: Option<String>,
    /// `// expect: error=unsupported`.
    pub unsupported: bool,
    /// `// error-contains: <text>`.
    pub error_contains: Option<String>,
    /// `expect: <property>=unknown`: violated only after undefined behaviour, so the answer
    /// must be UNKNOWN (with `true` for `expect(lp64):`).
    pub unknown: Vec<(Property, bool)>,
    /// `// witness: …` (key `None`), `// witness(<property>|lp64): …`: nondet sequences.
    pub witnesses: Vec<(Option<String>, Vec<u64>)>,
}

impl Header {
    /// The witness of a violation of `p` under `dm`, if the header gives one.
    pub fn witness(&self, p: Property, dm: DataModel) -> Option<&[u64]> {
        let find = |k: Option<&str>| {
            self.witnesses
                .iter()
                .find(|(w, _)| w.as_deref() == k)
                .map(|(_, v)| v.as_slice())
        };
        find(Some(p.name()))
            .or_else(|| {
                if dm == DataModel::Lp64 {
                    find(Some("lp64"))
                } else {
                    None
                }
            })
            .or_else(|| find(None))
    }

    /// Whether an execution may end in the UNKNOWN sink with this reason: the undefined
    /// behaviour it stands for is one the header admits (its property is expected violated,
    /// or, for behaviour no property reports, `oracle: skip` says the program has some).
    pub fn sink_allowed(&self, reason: &str, dm: DataModel) -> bool {
        let prop = if reason.contains("by zero") {
            Some(Property::DivByZero)
        } else if reason.contains("signed overflow") {
            Some(Property::NoOverflow)
        } else if reason.contains("out of bounds") {
            Some(Property::ValidIndex)
        } else {
            None
        };
        match prop {
            Some(p) => self.verdict(p, dm) != Some(true),
            None => self.oracle_skip.is_some(),
        }
    }

    /// Whether the header says the property is violated only after undefined behaviour.
    pub fn ub_dependent(&self, p: Property, dm: DataModel) -> bool {
        self.unknown
            .iter()
            .any(|&(q, lp)| q == p && (!lp || dm == DataModel::Lp64))
    }

    /// The expected verdict of a property under a data model, if given.
    pub fn verdict(&self, p: Property, dm: DataModel) -> Option<bool> {
        let lp = if dm == DataModel::Lp64 {
            self.expect_lp64.iter().find(|(q, _)| *q == p)
        } else {
            None
        };
        lp.or_else(|| self.expect.iter().find(|(q, _)| *q == p))
            .map(|(_, v)| *v)
    }
}

/// The items of an `expect:` or `expect(lp64):` line; a malformed item (no `=`, a property
/// that does not exist, a value other than `true`, `false`, `unknown`, an `error=` other than
/// `unsupported`) panics, so that a typo in a header cannot drop an expectation.
fn verdicts(s: &str, h: &mut Header, lp64: bool) {
    for item in s.split_whitespace() {
        let Some((k, v)) = item.split_once('=') else {
            panic!("malformed header item `{item}` (expected PROPERTY=VALUE) in `{s}`");
        };
        if k == "error" && !lp64 {
            assert_eq!(
                v, "unsupported",
                "header item `{item}`: only error=unsupported"
            );
            h.unsupported = true;
            continue;
        }
        let Some(p) = Property::from_name(k) else {
            panic!("header item `{item}`: `{k}` is not a property");
        };
        match v {
            "unknown" => h.unknown.push((p, lp64)),
            "true" | "false" => {
                let list = if lp64 {
                    &mut h.expect_lp64
                } else {
                    &mut h.expect
                };
                assert!(
                    list.iter().all(|(q, _)| *q != p),
                    "header item `{item}`: `{k}` is given twice"
                );
                list.push((p, v == "true"));
            }
            _ => panic!("header item `{item}`: the value must be true, false or unknown"),
        }
    }
}

/// Reads the leading comment lines of a fixture; a malformed `expect`, `expect(lp64)` or
/// `witness` line panics.
pub fn header(text: &str) -> Header {
    let mut h = Header::default();
    for line in text.lines() {
        let Some(c) = line.trim().strip_prefix("//") else {
            break;
        };
        let c = c.trim();
        if let Some(r) = c.strip_prefix("expect(lp64):") {
            verdicts(r, &mut h, true);
        } else if let Some(r) = c.strip_prefix("expect:") {
            verdicts(r, &mut h, false);
        } else if let Some(r) = c.strip_prefix("oracle:") {
            let r = r.trim();
            if let Some(reason) = r.strip_prefix("skip") {
                h.oracle_skip = Some(reason.trim().to_string());
            }
        } else if let Some(r) = c.strip_prefix("witness") {
            let (key, list) = match r.strip_prefix('(').and_then(|x| x.split_once("):")) {
                Some((k, l)) => (Some(k.trim().to_string()), l),
                None => (None, r.strip_prefix(':').unwrap_or("")),
            };
            let vals: Vec<u64> = list
                .split(',')
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(|v| {
                    v.parse()
                        .unwrap_or_else(|_| panic!("witness value `{v}` in `{line}` is not a u64"))
                })
                .collect();
            h.witnesses.push((key, vals));
        } else if let Some(r) = c.strip_prefix("error-contains:") {
            h.error_contains = Some(r.trim().to_string());
        }
    }
    h
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
