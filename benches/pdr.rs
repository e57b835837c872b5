//! PDR on a fixed instance: a C program (a counter modulo 1000 in a 16-bit variable and a copy
//! of it, both never above 999) that PDR proves safe with a few thousand lemmas. Criterion
//! times the whole proof; the time per relative-induction query and per generalisation (both
//! including their solver calls; a generalisation includes the queries it makes) are printed
//! from the engine's statistics, as medians over the measured runs.

use bitmc::cfa::Cfa;
use bitmc::engine::{graveyard, pdr, Options, Verdict};
use bitmc::frontend::{lower_source, FrontendOptions};
use bitmc::ts::program::{encode, EncodeOptions, Goal, PcEncoding};
use bitmc::ts::System;
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

fn instance() -> System {
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
    ps.sys
}

/// One proof: (relative-induction queries, their time, generalisations, their time).
fn prove(sys: &System) -> (f64, Duration, f64, Duration) {
    let (v, stats) = pdr::run(sys, &Options::default(), &mut |_| {});
    assert!(matches!(v, Verdict::Safe(_)), "PDR must prove the instance");
    // The engine defers freeing its solvers to its caller.
    graveyard::release();
    let get = |name: &str| -> &str {
        &stats
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("PDR statistics lack `{name}`"))
            .1
    };
    let secs = |s: &str| Duration::from_secs_f64(s.trim_end_matches(" s").parse().unwrap());
    (
        get("relative-induction queries").parse().unwrap(),
        secs(get("time in relative induction")),
        get("generalisations").parse().unwrap(),
        secs(get("time generalising")),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(c: &mut Criterion) {
    let sys = instance();
    let mut per_query = Vec::new();
    let mut per_gen = Vec::new();
    let mut counts = (0.0, 0.0);
    c.bench_function("pdr/mod_counter proof", |b| {
        b.iter(|| {
            let (q, tq, g, tg) = prove(&sys);
            per_query.push(tq.as_secs_f64() / q);
            per_gen.push(tg.as_secs_f64() / g);
            counts = (q, g);
        })
    });
    println!(
        "pdr/mod_counter: {} relative-induction queries, median {:.2} µs each; \
         {} generalisations, median {:.2} µs each",
        counts.0,
        median(per_query) * 1e6,
        counts.1,
        median(per_gen) * 1e6
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
