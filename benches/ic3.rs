//! The two IC3 engines on a fixed instance: a C program (a counter modulo 1000 in a 16-bit
//! variable and a copy of it, both never above 999) that PDR proves safe with a few thousand
//! lemmas on the bit-level system, and IC3CFA on the control-flow automaton. Criterion times the
//! whole proof; the time per relative-induction query and per generalisation (both including
//! their solver calls; a generalisation includes the queries it makes) are printed from the
//! engine's statistics, as medians over the measured runs.

use bitmc::cfa::Cfa;
use bitmc::engine::ic3cfa::{self, Ic3cfaOptions};
use bitmc::engine::stats::Value;
use bitmc::engine::{graveyard, pdr, Options, Stats, Verdict};
use bitmc::frontend::{lower_source, FrontendOptions};
use bitmc::ts::program::{encode, EncodeOptions, Goal, PcEncoding, ProgramSystem};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

const PROGRAM: &str = r#"
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
    unsigned short x = 0, y = 0;
    while (__VERIFIER_nondet_uchar()) {
        if (x == 999) x = 0; else x++;
        if (__VERIFIER_nondet_uchar()) y = x;
        if (x > 999 || y > 999) reach_error();
    }
    return 0;
}
"#;

fn instance() -> (Cfa, ProgramSystem) {
    let lowered = lower_source(PROGRAM, "mod_counter.c", &FrontendOptions::default())
        .expect("the benchmark program lowers");
    let cfa: Cfa = bitmc::verify::prepare(&lowered.cfa, true);
    let ps = encode(
        &cfa,
        EncodeOptions {
            pc: PcEncoding::Binary,
            goal: Goal::Error,
        },
    );
    (cfa, ps)
}

/// The names of an engine's statistics: relative-induction queries, their time,
/// generalisations, their time.
type Names = [&'static str; 4];

const PDR: Names = [
    "relative-induction queries",
    "time in relative induction",
    "generalisations",
    "time generalising",
];

const IC3CFA: Names = [
    "ic3cfa SAT calls for relative induction",
    "ic3cfa time in relative induction",
    "ic3cfa generalisations",
    "ic3cfa time generalising",
];

/// One proof's figures: (relative-induction queries, their time, generalisations, their time).
fn figures(
    engine: &str,
    v: Verdict,
    stats: &Stats,
    names: Names,
) -> (f64, Duration, f64, Duration) {
    assert!(
        matches!(v, Verdict::Safe(_)),
        "{engine} must prove the instance"
    );
    // The engines defer freeing their solvers to their caller.
    graveyard::release();
    let count = |name: &str| {
        stats
            .count(name)
            .unwrap_or_else(|| panic!("{engine} statistics lack the counter `{name}`"))
            as f64
    };
    let time = |name: &str| match stats.get(name) {
        Some(Value::Time(d)) => *d,
        _ => panic!("{engine} statistics lack the time `{name}`"),
    };
    (
        count(names[0]),
        time(names[1]),
        count(names[2]),
        time(names[3]),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `prove` and prints the medians of its figures.
fn measure(c: &mut Criterion, name: &str, prove: &dyn Fn() -> (f64, Duration, f64, Duration)) {
    let mut per_query = Vec::new();
    let mut per_gen = Vec::new();
    let mut counts = (0.0, 0.0);
    c.bench_function(&format!("{name}/mod_counter proof"), |b| {
        b.iter(|| {
            let (q, tq, g, tg) = prove();
            per_query.push(tq.as_secs_f64() / q);
            per_gen.push(tg.as_secs_f64() / g);
            counts = (q, g);
        })
    });
    println!(
        "{name}/mod_counter: {} relative-induction queries, median {:.2} µs each; \
         {} generalisations, median {:.2} µs each",
        counts.0,
        median(per_query) * 1e6,
        counts.1,
        median(per_gen) * 1e6
    );
}

fn bench(c: &mut Criterion) {
    let (cfa, ps) = instance();
    let opts = Options::default();
    measure(c, "pdr", &|| {
        let (v, stats) = pdr::run(&ps.sys, &opts, &mut |_| {});
        figures("PDR", v, &stats, PDR)
    });
    measure(c, "ic3cfa", &|| {
        let (v, stats) = ic3cfa::run(&cfa, &ps, &opts, Ic3cfaOptions::default(), &mut |_| {});
        figures("IC3CFA", v, &stats, IC3CFA)
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
