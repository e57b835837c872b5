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
    let v = e
        .run(&mut |_| {}, Instant::now())
        .ok()
        .expect("not interrupted");
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
