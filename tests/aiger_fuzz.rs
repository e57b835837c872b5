//! A dependency-free mutation fuzzer for the AIGER reader.
//!
//! Seeds: the bench files (when present), random well-formed files in both formats, and a few
//! hand-written ones. Mutations, stacked 1–4 at a time: truncation, bit flips, byte
//! overwrites/insertions/deletions, header-number edits (0, ±1, huge, random), varint garbage
//! (continuation bytes, over-long varints) in the binary part, line duplication/swap/deletion,
//! digit runs, and splices from other seeds.
//!
//! Oracle: the reader never panics; an error is one line starting with its position; an
//! accepted file passes `check`, converts to an `Aig`, and round-trips through both writers.
//!
//! `aiger_fuzz_short` runs in the default suite (a fixed number of inputs). The long run:
//! `AIGER_FUZZ_SECS=600 cargo test --release --test aiger_fuzz -- --ignored --nocapture`.

mod aig_support;

use aig_support::{random_aiger, Rng};
use bitmc::aig::aiger::{self, AigerError, Format};
use bitmc::aig::Aig;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

fn seeds(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut s: Vec<Vec<u8>> = vec![
        b"aag 0 0 0 0 0\n".to_vec(),
        b"aag 3 2 0 1 1\n2\n4\n6\n6 2 4\ni0 a\ni1 b\no0 out\nc\ncomment\n".to_vec(),
        b"aag 5 1 3 0 1 1 1 1 1\n2\n4 10 0\n6 4 1\n8 9 8\n11\n3\n2\n4\n7\n9\n10 2 6\nb0 bad\nj0 just\nf0 fair\n".to_vec(),
        b"aig 3 2 0 1 1\n6\n\x02\x01i0 a\nc\n".to_vec(),
    ];
    if let Some(dir) = aig_support::bench_aiger().and_then(|d| std::fs::read_dir(d).ok()) {
        for e in dir.flatten() {
            if e.path()
                .extension()
                .is_some_and(|x| x == "aig" || x == "aag")
            {
                if let Ok(d) = std::fs::read(e.path()) {
                    s.push(d);
                }
            }
        }
    }
    for k in 0..40 {
        let f = random_aiger(rng, 1 + k % 10);
        for fmt in [Format::Ascii, Format::Binary] {
            s.push(f.to_bytes(fmt).expect("generator files are valid"));
        }
    }
    s
}

/// The byte ranges of the first line's numbers (the header).
fn header_numbers(d: &[u8]) -> Vec<(usize, usize)> {
    let end = d.iter().position(|&b| b == b'\n').unwrap_or(d.len());
    let mut out = Vec::new();
    let mut i = 0;
    while i < end {
        if d[i].is_ascii_digit() {
            let s = i;
            while i < end && d[i].is_ascii_digit() {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

fn line_starts(d: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(
        d.iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1)
            .filter(|&i| i < d.len()),
    );
    v
}

fn mutate(rng: &mut Rng, d: &mut Vec<u8>, pool: &[Vec<u8>]) {
    let pos = |rng: &mut Rng, d: &Vec<u8>| rng.below(d.len() as u64 + 1) as usize;
    match rng.below(11) {
        0 => {
            let p = pos(rng, d);
            d.truncate(p);
        }
        1 if !d.is_empty() => {
            let p = rng.below(d.len() as u64) as usize;
            d[p] ^= 1 << rng.below(8);
        }
        2 if !d.is_empty() => {
            let p = rng.below(d.len() as u64) as usize;
            d[p] =
                [b' ', b'\n', b'0', b'9', b'a', b'c', b'i', 0x80, 0xff, 0][rng.below(10) as usize];
        }
        3 => {
            let p = pos(rng, d);
            let b = rng.below(256) as u8;
            d.insert(p, b);
        }
        4 if !d.is_empty() => {
            let p = rng.below(d.len() as u64) as usize;
            let n = (1 + rng.below(8) as usize).min(d.len() - p);
            d.drain(p..p + n);
        }
        5 => {
            let nums = header_numbers(d);
            if nums.is_empty() {
                return;
            }
            let (s, e) = nums[rng.below(nums.len() as u64) as usize];
            let old: u64 = std::str::from_utf8(&d[s..e])
                .ok()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
            let new = match rng.below(7) {
                0 => 0,
                1 => old + 1,
                2 => old.saturating_sub(1),
                3 => u32::MAX as u64,
                4 => 1 << 31,
                5 => rng.below(1 << 40),
                _ => rng.below(old * 2 + 2),
            };
            d.splice(s..e, new.to_string().into_bytes());
        }
        6 => {
            // Varint garbage: continuation bytes or an over-long varint in the second half.
            let p = d.len() / 2 + rng.below(d.len() as u64 / 2 + 1) as usize;
            let p = p.min(d.len());
            let run: Vec<u8> = match rng.below(3) {
                0 => vec![0x80 | rng.below(128) as u8; 1 + rng.below(6) as usize],
                1 => vec![0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
                _ => (0..1 + rng.below(4))
                    .map(|_| rng.below(256) as u8)
                    .collect(),
            };
            d.splice(p..p, run);
        }
        7 => {
            let ls = line_starts(d);
            let s = ls[rng.below(ls.len() as u64) as usize];
            let e = d[s..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(d.len(), |x| s + x + 1);
            let line = d[s..e].to_vec();
            match rng.below(3) {
                0 => {
                    d.splice(s..s, line);
                }
                1 => {
                    d.drain(s..e);
                }
                _ => {
                    let t = ls[rng.below(ls.len() as u64) as usize];
                    if t >= e || t < s {
                        d.drain(s..e);
                        let t = if t >= e { t - line.len() } else { t };
                        d.splice(t..t, line);
                    }
                }
            }
        }
        8 => {
            let p = pos(rng, d);
            let digits: Vec<u8> = (0..1 + rng.below(12))
                .map(|_| b'0' + rng.below(10) as u8)
                .collect();
            d.splice(p..p, digits);
        }
        9 => {
            let other = &pool[rng.below(pool.len() as u64) as usize];
            if other.is_empty() {
                return;
            }
            let s = rng.below(other.len() as u64) as usize;
            let e = s + rng.below((other.len() - s) as u64 + 1) as usize;
            let p = pos(rng, d);
            let q = (p + rng.below(64) as usize).min(d.len());
            d.splice(p..q, other[s..e].iter().copied());
        }
        _ => {
            let p = pos(rng, d);
            let b = [b" " as &[u8], b"\n", b"\r\n", b"-", b"c\n", b"i0 ", b"\x00"]
                [rng.below(7) as usize];
            d.splice(p..p, b.iter().copied());
        }
    }
}

/// The oracle on one input; returns a short outcome label for the statistics.
fn check_one(d: &[u8]) -> String {
    match aiger::parse(d) {
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "multi-line error {msg:?}");
            assert!(
                msg.starts_with("line ") || msg.starts_with("byte "),
                "no position: {msg}"
            );
            let AigerError::Parse { kind, .. } = e else {
                panic!("not a parse error: {msg}");
            };
            let label = format!("{kind:?}");
            label
                .split([' ', '(', '{'])
                .next()
                .unwrap_or_default()
                .to_owned()
        }
        Ok(f) => {
            f.check().expect("an accepted file passes check");
            f.to_aig(&mut Aig::new())
                .expect("an accepted file converts");
            let a = f.to_bytes(Format::Ascii).expect("writable");
            assert_eq!(aiger::parse(&a).expect("own ASCII output"), f);
            let b = f.to_bytes(Format::Binary).expect("writable");
            let (r, _) = f.renumbered().expect("renumberable");
            assert_eq!(aiger::parse(&b).expect("own binary output"), r);
            "accepted".into()
        }
    }
}

fn fuzz(budget: Duration, max_inputs: u64, seed: u64) {
    let mut rng = Rng(seed);
    let pool = seeds(&mut rng);
    let start = Instant::now();
    let mut stats: BTreeMap<String, u64> = BTreeMap::new();
    let mut n = 0u64;
    let mut bytes = 0u64;
    while n < max_inputs && start.elapsed() < budget {
        let mut d = pool[rng.below(pool.len() as u64) as usize].clone();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &mut d, &pool);
        }
        bytes += d.len() as u64;
        match catch_unwind(AssertUnwindSafe(|| check_one(&d))) {
            Ok(label) => *stats.entry(label).or_default() += 1,
            Err(_) => {
                let path = std::env::temp_dir().join(format!("aiger-fuzz-crash-{seed}-{n}.bin"));
                let _ = std::fs::write(&path, &d);
                panic!("input {n} failed the oracle; saved to {}", path.display());
            }
        }
        n += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "aiger fuzz: {n} inputs ({bytes} bytes) in {secs:.1} s from {} seeds",
        pool.len()
    );
    for (k, v) in &stats {
        println!("  {v:>10}  {k}");
    }
}

#[test]
fn aiger_fuzz_short() {
    fuzz(Duration::from_secs(60), 20_000, 1);
}

#[test]
#[ignore = "long run: set AIGER_FUZZ_SECS"]
fn aiger_fuzz_long() {
    let secs = std::env::var("AIGER_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed = std::env::var("AIGER_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed);
    fuzz(Duration::from_secs(secs), u64::MAX, seed);
}
