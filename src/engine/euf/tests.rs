//! The `euf` engine on small programs, and the soundness of its lemmas' premises.

use super::abstraction::{Abstraction, Mode};
use super::refine::Circuits;
use super::*;
use crate::bv::{value, Op, Sort};
use crate::cfa::Cfa;
use crate::frontend::{lower_source, FrontendOptions};
use crate::sat::Backend;
use crate::ts::program::{encode, EncodeOptions, Goal, PcEncoding, ProgramSystem};
use crate::ts::simulate::Rng;

fn program(body: &str) -> (Cfa, ProgramSystem) {
    let src = format!(
        "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {{ {body} return 0; }}"
    );
    let l = lower_source(&src, "test.c", &FrontendOptions::default()).expect("lowers");
    let cfa = crate::cfa::prepare(&l.cfa, true);
    let ps = encode(
        &cfa,
        EncodeOptions {
            pc: PcEncoding::Binary,
            goal: Goal::Error,
        },
    );
    (cfa, ps)
}

/// Runs the engine and checks its verdict on the precise system as every caller does.
fn verify(cfa: &Cfa, ps: &ProgramSystem) -> (Verdict, Stats) {
    verify_with(&EufOptions::default(), cfa, ps)
}

fn verify_with(eo: &EufOptions, cfa: &Cfa, ps: &ProgramSystem) -> (Verdict, Stats) {
    let opts = Options::default();
    let problem = Problem::program(Program { cfa, ps });
    let (v, stats) = eo.run(&problem, &opts, &mut |_| {});
    let checked = crate::witness::check_bit_level(&ps.sys, v, Backend::Batsat, &opts);
    (checked.verdict, stats)
}

fn count(stats: &Stats, name: &str) -> u64 {
    stats.count(name).expect("a counter")
}

const NONDET: &str = "int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int();";

#[test]
fn with_every_application_precise_the_abstract_system_is_the_program_system() {
    let (cfa, ps) = program(&format!(
        "{NONDET} int z = x * y; int q = y != 0 ? x / y : 0;
         if (z == 6 && q == 1) reach_error();"
    ));
    let mut abs = Abstraction::new(&cfa, &ps, Mode::default());
    assert_eq!(abs.apps.len(), 2, "the product and the quotient");
    for app in &mut abs.apps {
        app.precise = true;
    }
    let built = abs.build();
    let (a, p) = (&built.ms.sys, &ps.sys);
    assert_eq!(a.num_vars, p.num_vars);
    for (x, y) in [
        (&a.init, &p.init),
        (&a.constraints, &p.constraints),
        (&a.trans, &p.trans),
        (&a.bad, &p.bad),
    ] {
        assert!(x.iter().eq(y.iter()), "the clauses differ");
    }
    assert_eq!(built.ms.latch_var, ps.latch_var);
}

#[test]
fn a_product_the_property_does_not_need_is_never_refined() {
    let (cfa, ps) = program(&format!(
        "{NONDET} int i = 0; int z = 0;
         while (i < 10) {{ z = z + x * y; i++; }}
         if (z == 12345 && i != 10) reach_error();"
    ));
    let (v, stats) = verify(&cfa, &ps);
    assert!(matches!(v, Verdict::Safe(_)), "{}", v.word());
    assert_eq!(count(&stats, "refinements"), 0);
    assert_eq!(count(&stats, "applications abstracted"), 1);
}

#[test]
fn a_product_the_property_needs_is_refined_into_the_right_verdicts() {
    let reach =
        format!("{NONDET} __VERIFIER_assume(x >= 0 && x < 100); if (x * x == 49) reach_error();");
    let (cfa, ps) = program(&reach);
    let (v, stats) = verify(&cfa, &ps);
    assert!(matches!(v, Verdict::Unsafe(_)), "{}", v.word());
    assert!(count(&stats, "refinements") >= 1);
    let safe =
        format!("{NONDET} __VERIFIER_assume(x >= 0 && x < 100); if (x * x == 50) reach_error();");
    let (cfa, ps) = program(&safe);
    let (v, stats) = verify(&cfa, &ps);
    assert!(matches!(v, Verdict::Safe(_)), "{}", v.word());
    assert!(count(&stats, "refinements") >= 1);
}

/// After a refinement PDR starts from the frames of the run before it, which hold for the
/// refined system: the verdicts are those of runs that start afresh, and the later runs begin
/// with the lemmas about the loop counter the first run learned.
#[test]
fn frames_are_kept_across_refinements() {
    let fresh = EufOptions {
        keep_frames: false,
        ..EufOptions::default()
    };
    let mut resumed = 0;
    for (cond, unsafe_) in [("z != 400", false), ("z == 400", true), ("z == 399", false)] {
        let (cfa, ps) = program(&format!(
            "int i = 0; while (i < 20) {{ i++; }} int z = i * i; if ({cond}) reach_error();"
        ));
        let (kept, stats) = verify(&cfa, &ps);
        let (again, fresh_stats) = verify_with(&fresh, &cfa, &ps);
        assert_eq!(kept.word(), again.word(), "{cond}");
        assert_eq!(
            matches!(kept, Verdict::Unsafe(_)),
            unsafe_,
            "{cond}: {}",
            kept.word()
        );
        assert!(
            matches!(kept, Verdict::Safe(_) | Verdict::Unsafe(_)),
            "{cond}"
        );
        assert_eq!(count(&fresh_stats, "PDR lemmas kept across refinements"), 0);
        if count(&stats, "refinements") > 0 {
            let carried = count(&stats, "PDR lemmas kept across refinements");
            assert!(carried > 0, "{cond}: a refinement without kept lemmas");
            resumed += 1;
        }
    }
    assert!(
        resumed >= 2,
        "the product was refined in {resumed} programs only"
    );
}

/// In the full mode, the sum and the remainder of `x += 2; x % 2` are abstract while the
/// precise system keeps only bit 0 of `x`; ternary simulation of the remainder's circuit
/// needs higher bits of `x` than that, so the remainder is made precise instead of getting a
/// lemma that would name them, and the parity invariant is proved.
#[test]
fn full_mode_refines_within_the_precise_cone() {
    let (cfa, ps) = program(
        "unsigned x = 1; while (__VERIFIER_nondet_int()) { x += 2; } if (x % 2 == 0) reach_error();",
    );
    let full = EufOptions {
        full: true,
        ..EufOptions::default()
    };
    let (v, stats) = verify_with(&full, &cfa, &ps);
    assert!(matches!(v, Verdict::Safe(_)), "{}", v.word());
    assert!(count(&stats, "applications abstracted") >= 2);
    assert!(count(&stats, "refinements") >= 1);
}

/// A lemma's premise is sound: whatever the argument bits outside it are, the output bit it
/// names keeps its value.
#[test]
fn the_argument_bits_ternary_simulation_keeps_force_the_output_bit() {
    let mut circuits = Circuits::default();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let ops = [
        Op::Mul,
        Op::Udiv,
        Op::Urem,
        Op::Sdiv,
        Op::Srem,
        Op::Shl,
        Op::Lshr,
        Op::Ashr,
    ];
    let sorts = [Sort::Bv(6), Sort::Bv(6)];
    let mut narrowed = 0;
    for round in 0..400 {
        let op = ops[round % ops.len()];
        // Small values and zeros now and then, where operators have the most structure.
        let mut arg = || match rng.next() % 4 {
            0 => 0,
            1 => u128::from(rng.next() % 4),
            _ => u128::from(rng.next() % 64),
        };
        let vals = [arg(), arg()];
        let r = value::apply(op, &vals, &sorts, Sort::Bv(6));
        for j in 0..6 {
            let support = circuits.support(op, &sorts, &vals, j);
            narrowed += usize::from(support.len() < 12);
            for _ in 0..40 {
                let mut other = [u128::from(rng.next() & 63), u128::from(rng.next() & 63)];
                for &(k, b) in &support {
                    other[k] = (other[k] & !(1 << b)) | (vals[k] & (1 << b));
                }
                let s = value::apply(op, &other, &sorts, Sort::Bv(6));
                assert_eq!(
                    (s >> j) & 1,
                    (r >> j) & 1,
                    "{op:?} {vals:?} bit {j}: {other:?} outside {support:?} changes it"
                );
            }
        }
    }
    assert!(narrowed > 500, "premises are rarely smaller than every bit");
}

/// `only-abstract` makes the engine idle exactly on programs with nothing it abstracts (where it
/// would be PDR), and it then answers UNKNOWN with that reason; on a program with a product it
/// runs as without the option.
#[test]
fn only_abstract_is_idle_exactly_without_abstractions() {
    let only = EufOptions {
        only_abstract: true,
        ..EufOptions::default()
    };
    let (cfa, ps) = program(&format!(
        "{NONDET} if (x + y == 3 && x == 5) reach_error();"
    ));
    assert_eq!(abstraction::count(&ps, only.mode()), 0);
    let problem = Problem::program(Program { cfa: &cfa, ps: &ps });
    let why = only.idle(&problem).expect("idle without a product");
    assert!(why.contains("nothing to abstract"), "{why}");
    assert!(EufOptions::default().idle(&problem).is_none());
    let (v, _) = verify_with(&only, &cfa, &ps);
    assert!(matches!(v, Verdict::Unknown(_)), "{}", v.word());
    let (v, _) = verify(&cfa, &ps);
    assert!(matches!(v, Verdict::Unsafe(_)), "{}", v.word());

    let (cfa, ps) = program(&format!(
        "{NONDET} if (x * y == 6 && x == 2) reach_error();"
    ));
    let full = Mode {
        full: true,
        ..Mode::default()
    };
    assert_eq!(abstraction::count(&ps, only.mode()), 1);
    assert!(
        abstraction::count(&ps, full) >= 1,
        "the full mode abstracts the product too"
    );
    let problem = Problem::program(Program { cfa: &cfa, ps: &ps });
    assert!(only.idle(&problem).is_none());
    let (v, _) = verify_with(&only, &cfa, &ps);
    assert!(matches!(v, Verdict::Unsafe(_)), "{}", v.word());
}
