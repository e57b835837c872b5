//! The lock-step comparison of the interpreter with the encoding (`ts::lockstep`) can fail:
//! the system of a CFA with one guard negated or one assignment dropped is caught against the
//! interpreter of the unchanged CFA, from the interpreter to the system and back. And the
//! program of the replay bug (a havoc that large-block encoding copies into both branches of a
//! choice) gives a counterexample with one value per nondet call, for every engine.

mod common;

use bitmc::cfa::{Cfa, Gcl};
use bitmc::engine::portfolio::{Member, Strategy};
use bitmc::frontend::{lower_source, FrontendOptions};
use bitmc::sat::Interrupter;
use bitmc::ts::lockstep::ProgramLockstep;
use bitmc::ts::program::{encode, EncodeOptions, Goal, PcEncoding, ProgramSystem};
use bitmc::verify::{prepare, verify_cfa, ProgramVerdict, VerifyOptions};
use common::Rng;

/// What was changed in a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    NegatedGuard,
    DroppedAssignment,
}

/// `g` with its `n`-th atomic command changed, when it is a guard that is not a constant
/// (negated) or an assignment (dropped).
fn mutate(cfa: &mut Cfa, g: &Gcl, n: usize) -> Option<(Gcl, Change)> {
    let mut at = n;
    let mut change = None;
    let out = rebuild(cfa, g, &mut at, &mut change);
    change.map(|c| (out, c))
}

fn rebuild(cfa: &mut Cfa, g: &Gcl, at: &mut usize, change: &mut Option<Change>) -> Gcl {
    match g {
        Gcl::Seq(gs) => Gcl::Seq(gs.iter().map(|g| rebuild(cfa, g, at, change)).collect()),
        Gcl::Choice(gs) => Gcl::Choice(gs.iter().map(|g| rebuild(cfa, g, at, change)).collect()),
        atom => {
            let here = *at == 0;
            *at = at.wrapping_sub(1);
            match atom {
                Gcl::Assume(t, o) if here && cfa.tm.const_value(*t).is_none() => {
                    *change = Some(Change::NegatedGuard);
                    Gcl::Assume(cfa.tm.not(*t), *o)
                }
                Gcl::Assign(..) if here => {
                    *change = Some(Change::DroppedAssignment);
                    Gcl::skip()
                }
                a => a.clone(),
            }
        }
    }
}

/// Whether some of `runs` random runs shows a difference between the interpreter of `cfa` and
/// the system `ps`: from the interpreter to the system, and from the system to the
/// interpreter.
fn detected(cfa: &Cfa, ps: &ProgramSystem, runs: usize, rng: &mut Rng) -> (bool, bool) {
    let ls = ProgramLockstep::new(cfa, ps);
    let mut init = Rng(rng.next(), Vec::new());
    let mut draw = |w: u32| bitmc::bv::value::truncate(init.interesting() as u128, w);
    let to_system = (0..runs).any(|_| {
        ls.follow_interpreter(&rng.values(64), 64, &mut draw)
            .is_err()
    });
    let mut draw = |w: u32| bitmc::bv::value::truncate(rng.interesting() as u128, w);
    let to_cfa = (0..runs).any(|_| {
        ls.simulate(&mut draw, 64)
            .and_then(|run| ls.replay(&run))
            .is_err()
    });
    (to_system, to_cfa)
}

fn prepared(src: &str) -> Cfa {
    let opts = FrontendOptions {
        lbe: false,
        ..FrontendOptions::default()
    };
    let lowered = lower_source(src, "t.c", &opts).expect("lowers");
    prepare(&lowered.cfa, true)
}

fn system(cfa: &Cfa) -> ProgramSystem {
    let opts = EncodeOptions {
        pc: PcEncoding::Binary,
        goal: Goal::Error,
    };
    encode(cfa, opts)
}

#[test]
fn a_changed_encoding_is_caught_in_both_directions() {
    // Every guard and assignment matters: the error is reached for x = 4 (and only then), and
    // the values of x and y are state of the system.
    let cfa = prepared(
        "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);\n\
         int main(void) { int x = __VERIFIER_nondet_int(); int y = 0;\n\
         while (x > 0 && x < 20) { if (x % 3 == 1) y = y + 3; else y = y - 1; x = x - 1; }\n\
         if (y == 4) reach_error(); return 0; }",
    );
    let mut rng = Rng(0x3a7e_11ce, (0..24).collect());
    // The system of the CFA itself agrees with it.
    assert_eq!(detected(&cfa, &system(&cfa), 40, &mut rng), (false, false));
    let (mut guards, mut assignments) = (0, 0);
    for e in 0..cfa.edges.len() {
        for atom in 0..cfa.edges[e].cmd.atom_count() {
            let mut mutant = cfa.clone();
            let Some((cmd, change)) = mutate(&mut mutant, &cfa.edges[e].cmd, atom) else {
                continue;
            };
            mutant.edges[e].cmd = cmd;
            let (to_system, to_cfa) = detected(&cfa, &system(&mutant), 40, &mut rng);
            assert!(
                to_system && to_cfa,
                "edge {e}, atom {atom} ({change:?}): caught from the interpreter {to_system}, from the system {to_cfa}"
            );
            match change {
                Change::NegatedGuard => guards += 1,
                Change::DroppedAssignment => assignments += 1,
            }
        }
    }
    eprintln!(
        "mutants caught in both directions: {guards} negated guards, {assignments} dropped assignments"
    );
    assert!(
        guards >= 5 && assignments >= 4,
        "{guards} guards, {assignments} assignments"
    );
}

#[test]
fn a_havoc_copied_into_both_branches_decodes_to_one_value() {
    // Large-block encoding copies `y`'s havoc into both branches of the merged choice: one
    // value at one position, whichever branch is taken.
    let cfa = prepared(
        "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);\n\
         int main(void) { int x = 0;\n\
         if (__VERIFIER_nondet_int()) x = 1; else x = 2;\n\
         int y = __VERIFIER_nondet_int();\n\
         if (y == 5 && x == 1) reach_error(); return 0; }",
    );
    let atoms = cfa.edges.iter().map(|e| e.cmd.atom_count()).max();
    assert!(atoms >= Some(8), "the branches are merged into one edge");
    for engine in ["bmc", "kind", "pdr"] {
        let member: Member = engine.parse().expect("a member");
        let opts = VerifyOptions {
            strategy: Strategy::Single(member),
            max_depth: None,
            pc: PcEncoding::Binary,
            interrupter: Interrupter::new(),
            invariant_budget: None,
            preprocess: Default::default(),
            undefined_calls: Default::default(),
            fault: None,
        };
        let r = verify_cfa(&cfa, &opts, &mut |_| {});
        let ProgramVerdict::False(_, trace) = r.verdict else {
            panic!("{engine}: {:?}", r.verdict);
        };
        let n = &trace.nondet;
        assert!(n.len() == 2 && n[0] != 0 && n[1] == 5, "{engine}: {n:?}");
    }
}
