//! IC3CFA on small programs: the invariants it finds pass the independent check, and the same
//! invariants with one location's lemmas left out do not.

use super::*;
use crate::cfa::LocKind;
use crate::engine::CircuitInvariant;
use crate::frontend::{lower_source, FrontendOptions};
use crate::sat::Backend;
use crate::ts::program::PcEncoding;
use crate::ts::program::{encode, EncodeOptions, Goal};
use crate::witness::{check_circuit_invariant, InvariantFailure};

fn program(src: &str) -> Cfa {
    let l = lower_source(src, "test.c", &FrontendOptions::default()).expect("lowers");
    crate::cfa::prepare(&l.cfa, true)
}

const DECLS: &str = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);\n";

/// The thesis' `P_true`: the lemma `¬(y > x)` at the loop head proves it.
const P_TRUE: &str =
    "int main(void) { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y <= x); __VERIFIER_assume(y > -1000);
  while (1) { if (!(y <= x || (x != 1 && x != 2))) reach_error(); y--; if (y < -1000) break; }
  return 0; }";

fn check(sys: &crate::ts::System, c: &CircuitInvariant) -> Result<(), InvariantFailure> {
    let opts = Options::default();
    check_circuit_invariant(sys, c, Backend::Batsat, &opts).expect("not interrupted")
}

#[test]
fn the_invariant_passes_and_weakened_ones_fail() {
    let src = format!("{DECLS}{P_TRUE}");
    let cfa = program(&src);
    let ps = encode(
        &cfa,
        EncodeOptions {
            pc: PcEncoding::Binary,
            goal: Goal::Error,
        },
    );
    let opts = Options::default();
    let mut e = Ic3cfa::new(&cfa, &ps, &opts, Ic3cfaOptions::default());
    let v = e.run(&mut |_| {}, Instant::now()).expect("not interrupted");
    assert!(
        matches!(v, Verdict::Safe(Certificate::Circuit(_))),
        "{}",
        v.word()
    );
    let level = e.fixpoint.expect("a fixpoint");
    let full = e.certificate(level).expect("an invariant");
    assert_eq!(check(&ps.sys, &full), Ok(()));
    // Every location with lemmas above the fixpoint, its lemmas left out in turn.
    let with_lemmas: Vec<Loc> = (0..cfa.locations.len())
        .map(|l| Loc(l as u32))
        .filter(|l| e.lemmas.from(l.index(), level + 1).next().is_some())
        .collect();
    assert!(!with_lemmas.is_empty());
    let mut rejected = 0;
    for &l in &with_lemmas {
        let weak = e
            .certificate_of(level, &|at, _| at != l)
            .expect("an invariant");
        let r = check(&ps.sys, &weak);
        if cfa.locations[l.index()].kind == LocKind::Error {
            // Without the error location's empty lemma, the invariant admits the goal.
            assert_eq!(r, Err(InvariantFailure::Safety));
        }
        rejected += usize::from(r.is_err());
    }
    // Every location's lemmas are needed here: the loop head's (y ≤ x) and the error's.
    assert_eq!(rejected, with_lemmas.len());
}

#[test]
fn a_counterexample_is_a_plan_of_the_system() {
    let src = format!(
        "{DECLS}int main(void) {{ int x = __VERIFIER_nondet_int(); int n = 0;
  while (n < 5) {{ n++; if (x == 3 && n == 4) reach_error(); }} return 0; }}"
    );
    let cfa = program(&src);
    let ps = encode(
        &cfa,
        EncodeOptions {
            pc: PcEncoding::Binary,
            goal: Goal::Error,
        },
    );
    let (v, _) = run(
        &cfa,
        &ps,
        &Options::default(),
        Ic3cfaOptions::default(),
        &mut |_| {},
    );
    let Verdict::Unsafe(plan) = v else {
        panic!("expected UNSAFE, got {}", v.word())
    };
    assert_eq!(ps.sys.check_plan(&plan), Ok(()));
    let replay = ps.replay(&cfa, &plan, plan.states.len() + 4);
    assert!(replay.outcome.is_target(), "{:?}", replay.outcome);
    assert!(replay.nondet.contains(&3));
}

/// A fixture of `fixtures/c/`, lowered as [`program`] lowers a source.
fn fixture(path: &str) -> Cfa {
    let full = format!("{}/fixtures/c/{path}", env!("CARGO_MANIFEST_DIR"));
    program(&std::fs::read_to_string(&full).expect("a fixture"))
}

fn encoded(cfa: &Cfa) -> ProgramSystem {
    encode(
        cfa,
        EncodeOptions {
            pc: PcEncoding::Binary,
            goal: Goal::Error,
        },
    )
}

/// Runs IC3CFA with `io` (and the push filter audited when `audit`); the verdict and the
/// engine, for its counters.
fn run_with<'a>(
    cfa: &'a Cfa,
    ps: &'a ProgramSystem,
    opts: &'a Options,
    io: Ic3cfaOptions,
    audit: bool,
) -> (Verdict, Ic3cfa<'a>) {
    let mut e = Ic3cfa::new(cfa, ps, opts, io);
    e.audit_filter = audit;
    let v = e.run(&mut |_| {}, Instant::now()).expect("not interrupted");
    (v, e)
}

/// The push filter leaves out only pushes that would fail (each one it leaves out is asked
/// anyway, and must fail), and it saves push queries; with and without it the invariant found
/// passes the check.
#[test]
fn the_push_filter_leaves_out_only_pushes_that_fail() {
    for f in ["control/nested_break.c", "ic3cfa/token_ring.c"] {
        let cfa = fixture(f);
        let ps = encoded(&cfa);
        let opts = Options::default();
        let mut counts = Vec::new();
        for (filter, audit) in [(true, true), (true, false), (false, false)] {
            let io = Ic3cfaOptions {
                push_filter: filter,
                ..Ic3cfaOptions::default()
            };
            let (v, e) = run_with(&cfa, &ps, &opts, io, audit);
            let Verdict::Safe(Certificate::Circuit(c)) = v else {
                panic!("{f}: expected SAFE, got {}", v.word())
            };
            assert_eq!(check(&ps.sys, &c), Ok(()), "{f}");
            counts.push((e.n.push_filtered, e.n.sat_push));
        }
        let [(audited, _), (filtered, with), (none, without)] = counts[..] else {
            unreachable!()
        };
        assert!(audited > 0 && filtered > 0, "{f}: nothing filtered");
        assert_eq!(none, 0, "{f}");
        assert!(
            with < without,
            "{f}: {with} push queries with the filter, {without} without"
        );
    }
}

/// A stop by stable iterations hands over a frame that nothing proved; only the independent
/// check decides. On P_true without pushing, one stable round ends the run with an invariant
/// the check accepts. On a program whose error is reachable, the same criterion stops with a
/// SAFE claim that the check rejects, so the verdict reported is UNKNOWN (internal error), and
/// without the criterion the engine finds the counterexample. With pushing on, the frame
/// handed over is one that pushing has not shown inductive, and it is rejected too.
#[test]
fn a_stop_by_stable_iterations_counts_only_once_checked() {
    let opts = Options::default();
    let stable = |push: bool| Ic3cfaOptions {
        stable: 1,
        push,
        ..Ic3cfaOptions::default()
    };
    let claim = |f: &str, io: Ic3cfaOptions| {
        let cfa = fixture(f);
        let ps = encoded(&cfa);
        let (v, e) = run_with(&cfa, &ps, &opts, io, false);
        assert_eq!(e.n.stable_stops, 1, "{f}: no stop by stable iterations");
        assert!(e.fixpoint.is_none() && e.stable_stop.is_some(), "{f}");
        let Verdict::Safe(Certificate::Circuit(c)) = &v else {
            panic!("{f}: expected a SAFE claim, got {}", v.word())
        };
        let alone = check(&ps.sys, c);
        let checked = crate::witness::check_bit_level(&ps.sys, v, Backend::Cadical, &opts);
        (alone, checked.verdict)
    };
    let (alone, v) = claim("ic3cfa/p_true.c", stable(false));
    assert_eq!(alone, Ok(()));
    assert!(matches!(v, Verdict::Safe(_)), "{}", v.word());
    for (f, io) in [
        ("ic3cfa/token_ring_reach.c", stable(false)),
        ("control/nested_break.c", stable(true)),
    ] {
        let (alone, v) = claim(f, io);
        assert!(alone.is_err(), "{f}: the check accepted a frame");
        assert!(
            matches!(&v, Verdict::Unknown(u) if u.is_internal()),
            "{f}: {}",
            v.word()
        );
    }
    let cfa = fixture("ic3cfa/token_ring_reach.c");
    let ps = encoded(&cfa);
    let (v, _) = run_with(&cfa, &ps, &opts, Ic3cfaOptions::default(), false);
    assert!(matches!(v, Verdict::Unsafe(_)), "{}", v.word());
}

/// The Jain programs of the IC3CFA thesis' set: variables moved by multiples of constants
/// times nondet values, and a property that only the parity (or the residue modulo a power of
/// two) of a weighted sum proves. The predecessors IC3CFA computes hold the sum with the
/// step's constants (`(x + 2a) + (y + 2b) == 1`), which the fallback reads as one polynomial
/// at several constants (`x + y == k`), so it replaces the equality by the sum's low bits; in
/// the last program the bits up to the constant's lowest one (17, not a power of two). The
/// deadline only keeps a failure from hanging.
#[test]
fn jain_sums_are_proved_through_their_low_bits() {
    let programs = [
        "unsigned x = 1, y = 1;
         while (1) { x = x + 2U * __VERIFIER_nondet_int(); y = y + 2U * __VERIFIER_nondet_int();
           if (x + y == 1U) reach_error(); }",
        "unsigned x = 0, y = 0, z = 0;
         while (1) { x = x + 4U * __VERIFIER_nondet_int(); y = y + 4U * __VERIFIER_nondet_int();
           z = z + 8U * __VERIFIER_nondet_int(); if (x + y + z == 1U) reach_error(); }",
        "unsigned x = 0, y = 0, z = 0;
         while (1) { x = x + 2U * __VERIFIER_nondet_int(); y = y + 4U * __VERIFIER_nondet_int();
           z = z + 8U * __VERIFIER_nondet_int(); if (4U * x + 2U * y + z == 4U) reach_error(); }",
        "unsigned x = 0, y = 0;
         while (1) { x = x + 65536U * __VERIFIER_nondet_int(); y = y + 131072U * __VERIFIER_nondet_int();
           if (2U * x + y == 65536U) reach_error(); }",
    ];
    for body in programs {
        let cfa = program(&format!("{DECLS}int main(void) {{ {body} return 0; }}"));
        let ps = encode(
            &cfa,
            EncodeOptions {
                pc: PcEncoding::Binary,
                goal: Goal::Error,
            },
        );
        let deadline = Instant::now() + std::time::Duration::from_secs(60);
        let (v, splits, cert) = crate::sat::with_deadline(&Interrupter::new(), deadline, |i| {
            let opts = Options {
                interrupter: i.clone(),
                ..Options::default()
            };
            let mut e = Ic3cfa::new(&cfa, &ps, &opts, Ic3cfaOptions::default());
            let v = e
                .run(&mut |_| {}, Instant::now())
                .expect("proved before the deadline");
            let cert = e.fixpoint.and_then(|l| e.certificate(l).ok());
            (v, e.n.bit_splits, cert)
        });
        assert!(matches!(v, Verdict::Safe(_)), "{body}: {}", v.word());
        assert!(splits >= 1, "{body}: no equality split into bits");
        assert_eq!(
            check(&ps.sys, &cert.expect("an invariant")),
            Ok(()),
            "{body}"
        );
    }
}
