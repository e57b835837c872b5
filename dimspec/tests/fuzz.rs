//! A dependency-free mutation fuzzer for the reader (ignored by default: it runs for a set time).
//!
//! ```text
//! DIMSPEC_FUZZ_SECS=600 cargo test -p dimspec --release --test fuzz -- --ignored --nocapture
//! ```
//!
//! Seeds are random problems in the written subset and in liberal spellings, plus hand-written
//! edge cases. Mutations are structured: bit flips, interesting bytes, inserted tokens (headers,
//! `0`, `-`, comments, huge numbers), replaced numbers, deleted or duplicated ranges, truncation,
//! line swaps and splices of two inputs. Every input must parse without panicking; an accepted
//! input must be writable and read back equal; an error must have a plausible one-line location.
//! Mutants that parse, or that hit a rarely seen error reason, join the pool. A panicking input is
//! saved to the temp directory and the test fails with its path. `DIMSPEC_FUZZ_SEED` fixes the seed.

mod common;

use common::Rng;
use dimspec::{parse, to_bytes, Reason};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

const TOKENS: &[&[u8]] = &[
    b"0",
    b"-",
    b"-0",
    b"1",
    b"-1",
    b"c",
    b"c x\n",
    b"\n",
    b" ",
    b"\t",
    b"\r\n",
    b"i cnf ",
    b"u cnf 3 2\n",
    b"g cnf 0 0\n",
    b"t cnf 4 1\n",
    b"t cnf 3 0\n",
    b"i cnf 2 0\n",
    b"p cnf 2 1\n",
    b"cnf",
    b"i",
    b"t",
    b"p",
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
];

const NUMBERS: &[&[u8]] = &[
    b"0",
    b"1",
    b"2",
    b"3",
    b"4",
    b"7",
    b"8",
    b"00",
    b"2147483647",
    b"2147483648",
    b"-2147483648",
    b"-2147483647",
    b"1073741823",
    b"1073741824",
    b"2147483646",
    b"4294967295",
    b"4294967296",
    b"18446744073709551615",
    b"18446744073709551616",
    b"99999999999999999999999999",
];

const HANDWRITTEN: &[&[u8]] = &[
    b"c two-bit counter\ni cnf 2 2\n-1 0\n-2 0\nu cnf 2 0\ng cnf 2 2\n1 0\n2 0\nt cnf 4 6\n\
      1 3 0\n-1 -3 0\n-2 -1 -4 0\n-2 1 4 0\n2 -1 4 0\n2 1 -4 0\n",
    b"t cnf 4 1\n1 8 0\ni cnf 4 0\n",
    b"t cnf 4 0\nt cnf 2 0\ng cnf 2 1 1 0",
    b"t cnf 3 1\n-6 0",
    b"i cnf 0 1\n0\n",
    b"c only\n",
    b"",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    let len = input.len();
    let at = |rng: &mut Rng| rng.below(len + 1);
    match rng.below(10) {
        0 if len > 0 => {
            let i = rng.below(len);
            input[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            input[i] = *rng.pick(b"0123456789-c iugtp\n\r\t\x00\xff\x0b");
        }
        2 => {
            let i = at(rng);
            input.splice(i..i, rng.pick(TOKENS).iter().copied());
        }
        3 if len > 0 => {
            let i = rng.below(len);
            let end = (i + 1 + rng.below(16)).min(len);
            input.drain(i..end);
        }
        4 => input.truncate(at(rng)),
        5 if len > 0 => {
            let i = rng.below(len);
            let end = (i + 1 + rng.below(64)).min(len);
            let piece = input[i..end].to_vec();
            let j = at(rng);
            input.splice(j..j, piece);
        }
        6 => {
            // Replace the digits of a number (or insert one) with an interesting number.
            let i = at(rng);
            let start = input[..i]
                .iter()
                .rposition(|b| !b.is_ascii_digit())
                .map_or(0, |p| p + 1);
            let end = i + input[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            input.splice(start..end, rng.pick(NUMBERS).iter().copied());
        }
        7 => {
            let cut = at(rng);
            let from = rng.below(other.len() + 1);
            input.truncate(cut);
            input.extend_from_slice(&other[from..]);
        }
        8 => {
            // Swap two lines.
            let text = std::mem::take(input);
            let mut lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
            if lines.len() > 1 {
                let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(a, b);
            }
            *input = lines.concat();
        }
        _ => {
            let i = at(rng);
            input.splice(
                i..i,
                rng.pick(&[&b" "[..], b"\n", b" c z\n", b"0 "])
                    .iter()
                    .copied(),
            );
        }
    }
}

/// The variant name of a reason, e.g. `ClauseCount`.
fn reason_name(reason: &Reason) -> String {
    let debug = format!("{reason:?}");
    let end = debug.find([' ', '(', '{']).unwrap_or(debug.len());
    debug[..end].to_string()
}

/// Runs the checks on one input; `Err` describes a violated property (not a rejected input).
fn check(input: &[u8]) -> Result<Option<String>, String> {
    let parsed =
        catch_unwind(AssertUnwindSafe(|| parse(input))).map_err(|_| "panic".to_string())?;
    match parsed {
        Ok(p) => {
            let bytes = to_bytes(&p).map_err(|e| format!("accepted but not writable: {e}"))?;
            match parse(&bytes) {
                Ok(q) if q == p => Ok(None),
                Ok(_) => Err("written form reads back differently".into()),
                Err(e) => Err(format!("written form rejected: {e}")),
            }
        }
        Err(e) => {
            let lines = 1 + input.iter().filter(|&&b| b == b'\n').count();
            if e.line == 0 || e.column == 0 || e.line > lines || e.to_string().contains('\n') {
                return Err(format!("implausible error {e:?}"));
            }
            Ok(Some(reason_name(&e.reason)))
        }
    }
}

#[test]
#[ignore = "long-running fuzzer; run with DIMSPEC_FUZZ_SECS=<seconds> -- --ignored"]
fn fuzz_reader() {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let secs = env("DIMSPEC_FUZZ_SECS").unwrap_or(30);
    let seed = env("DIMSPEC_FUZZ_SEED").unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(1, |d| d.as_nanos() as u64)
    });
    let mut rng = Rng::new(seed);
    let mut pool: Vec<Vec<u8>> = HANDWRITTEN.iter().map(|s| s.to_vec()).collect();
    for _ in 0..200 {
        let p = common::random_problem(&mut rng);
        pool.push(to_bytes(&p).expect("generated problems are valid"));
        pool.push(common::write_liberal(&p, &mut rng));
    }
    let mut seen: HashMap<String, u64> = HashMap::new();
    let (mut runs, mut accepted) = (0u64, 0u64);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    while runs % 1024 != 0 || Instant::now() < deadline {
        let mut input = pool[rng.below(pool.len())].clone();
        let other = &pool[rng.below(pool.len())];
        for _ in 0..1 + rng.below(6) {
            mutate(&mut rng, &mut input, other);
        }
        runs += 1;
        let outcome = check(&input).unwrap_or_else(|problem| {
            let path = std::env::temp_dir().join(format!("dimspec-fuzz-{seed}-{runs}.cnf"));
            let saved = std::fs::write(&path, &input).is_ok();
            panic!(
                "{problem} on input {input:?} (saved: {saved}, {})",
                path.display()
            );
        });
        let keep = match outcome {
            None => {
                accepted += 1;
                rng.one_in(8)
            }
            Some(reason) => {
                let count = seen.entry(reason).or_default();
                *count += 1;
                *count < 64 || rng.one_in(4096)
            }
        };
        if keep && input.len() < 1 << 14 {
            if pool.len() < 4096 {
                pool.push(input);
            } else {
                let slot = HANDWRITTEN.len() + rng.below(pool.len() - HANDWRITTEN.len());
                pool[slot] = input;
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let mut kinds: Vec<String> = seen.iter().map(|(k, v)| format!("{k} {v}")).collect();
    kinds.sort();
    println!(
        "fuzz: seed {seed}, {elapsed:.0} s, {runs} inputs ({:.0}/s), {accepted} accepted, \
         {} rejected, pool {}\nrejections by reason: {}",
        runs as f64 / elapsed,
        runs - accepted,
        pool.len(),
        kinds.join(", ")
    );
}
