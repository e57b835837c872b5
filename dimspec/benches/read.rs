//! Read and write throughput on a generated DimSpec file of about 120 MB.
//!
//! ```text
//! cargo bench -p dimspec --bench read
//! ```
//!
//! The file (n = 1 000 000, 5.5 M clauses of 1–5 literals, mostly in `t`) is written once into a
//! temporary directory and removed at the end. Measured, in decimal MB/s of DimSpec text:
//! `read_file` (memory-mapped), `parse` of an in-memory slice, `write` into a sink (formatting
//! only) and `write` into a file. Criterion measures wall time, which on a shared machine also
//! counts the time other processes hold the CPU; so the same operations are then timed once more
//! by this thread's CPU time (Linux `/proc/thread-self/schedstat`, user + kernel) and printed as
//! `cpu-time throughput` lines.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dimspec::{parse, read_file, to_bytes, write, Problem, Section};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

const N: u32 = 1_000_000;
const CLAUSES: usize = 5_500_000;

/// A deterministic problem of realistic shape: short clauses over variables of up to 7 digits.
fn problem() -> Problem {
    let mut p = Problem::new(N);
    p.comments.push("generated for the read benchmark".into());
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..CLAUSES {
        let section = match i % 100 {
            0 => Section::Init,
            1..=9 => Section::Universal,
            10 => Section::Goal,
            _ => Section::Trans,
        };
        let max = section.max_var(N);
        let len = 1 + (next() % 5) as usize;
        p.section_mut(section).push_clause_iter((0..len).map(|_| {
            let r = next();
            let v = 1 + (r >> 1) % max;
            if r & 1 == 1 {
                -(v as i32)
            } else {
                v as i32
            }
        }));
    }
    p
}

fn bench(c: &mut Criterion) {
    let p = problem();
    let bytes = to_bytes(&p).expect("generated problem is valid");
    let size = bytes.len() as u64;
    let dir = std::env::temp_dir().join(format!("dimspec-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join("bench.cnf");
    std::fs::write(&path, &bytes).expect("write bench file");
    eprintln!(
        "bench file {}: {:.1} MB, {} clauses, {} literals",
        path.display(),
        size as f64 / 1e6,
        CLAUSES,
        p.init.num_literals()
            + p.universal.num_literals()
            + p.goal.num_literals()
            + p.trans.num_literals()
    );
    assert_eq!(read_file(&path).expect("bench file reads back"), p);

    let mut group = c.benchmark_group("dimspec");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(15));
    group.throughput(Throughput::BytesDecimal(size));
    group.bench_function("read_file (mmap)", |b| {
        b.iter(|| read_file(black_box(&path)).expect("valid"))
    });
    group.bench_function("parse (in memory)", |b| {
        b.iter(|| parse(black_box(&bytes)).expect("valid"))
    });
    group.bench_function("write (sink)", |b| {
        b.iter(|| write(black_box(&p), std::io::sink()).expect("valid"))
    });
    let out = dir.join("out.cnf");
    group.bench_function("write (file)", |b| {
        b.iter(|| {
            let file = std::fs::File::create(&out).expect("create");
            write(black_box(&p), file).expect("valid")
        })
    });
    group.finish();

    let ops: [(&str, &dyn Fn()); 4] = [
        ("read_file (mmap)", &|| {
            drop(read_file(&path).expect("valid"))
        }),
        ("parse (in memory)", &|| drop(parse(&bytes).expect("valid"))),
        ("write (sink)", &|| {
            write(&p, std::io::sink()).expect("valid")
        }),
        ("write (file)", &|| {
            let file = std::fs::File::create(&out).expect("create");
            write(&p, file).expect("valid")
        }),
    ];
    for (name, op) in ops {
        if let Some(mb_s) = cpu_throughput(size, op) {
            eprintln!("cpu-time throughput: dimspec/{name}: {mb_s:.0} MB/s (best of 5)");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// This thread's CPU time in nanoseconds, if the kernel reports it.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Decimal MB/s of `op` over `size` bytes, by the best of 5 runs in CPU time.
fn cpu_throughput(size: u64, op: &dyn Fn()) -> Option<f64> {
    let mut best = u64::MAX;
    for _ in 0..5 {
        let start = thread_cpu_ns()?;
        op();
        best = best.min(thread_cpu_ns()? - start);
    }
    Some(size as f64 / 1e6 / (best as f64 / 1e9))
}

criterion_group!(benches, bench);
criterion_main!(benches);
