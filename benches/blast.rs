//! Bit-blasting speed and circuit size: a 64-bit multiplier, unsigned divider and remainder
//! (and their signed and 32-bit counterparts for comparison). Prints the AND-gate count of
//! each circuit (all nodes built, and the cone of the result; Tseitin needs 3 clauses per AND).

use bitmc::aig::blast::Blaster;
use bitmc::aig::Aig;
use bitmc::bv::{Op, Sort, TermId, TermManager};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn term(op: Op, w: u32) -> (TermManager, TermId) {
    let mut tm = TermManager::new();
    let x = tm.var("x", Sort::Bv(w));
    let y = tm.var("y", Sort::Bv(w));
    let t = tm.app(op, &[x, y]);
    (tm, t)
}

fn blast(tm: &TermManager, t: TermId) -> (Aig, Vec<bitmc::aig::AigLit>) {
    let mut aig = Aig::new();
    let out = Blaster::new().blast(tm, &mut aig, t);
    (aig, out)
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("mul64", Op::Mul, 64),
        ("udiv64", Op::Udiv, 64),
        ("urem64", Op::Urem, 64),
        ("sdiv64", Op::Sdiv, 64),
        ("srem64", Op::Srem, 64),
        ("mul32", Op::Mul, 32),
        ("udiv32", Op::Udiv, 32),
    ];
    for (name, op, w) in cases {
        let (tm, t) = term(op, w);
        let (aig, out) = blast(&tm, t);
        let inputs = 2 * w as usize;
        let cone_ands = aig.cone(&out).len() - inputs;
        println!(
            "{name}: {} ANDs built, {cone_ands} in the cone ({} Tseitin clauses)",
            aig.num_ands(),
            3 * cone_ands
        );
        c.bench_function(name, |b| b.iter(|| blast(black_box(&tm), black_box(t))));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
