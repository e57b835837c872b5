//! Every CFA pass keeps the program's behaviour: on every fixture (including those with
//! undefined behaviour, which the CFA still defines) and every property, the interpreter gives
//! the same outcome on random nondet sequences before and after the pass. Large-block encoding,
//! constant/copy propagation and dead-variable elimination keep the outcome exactly (error,
//! sink and its reason, exit, blocked, exhausted); the cone of influence keeps whether and
//! which target is reached.

mod common;

use bitmc::cfa::{
    cone_of_influence, eliminate_dead_variables, large_block_encoding,
    propagate_constants_and_copies, run_with, split_choices, Cfa, DataModel, Outcome, Property,
    RunOptions,
};
use bitmc::frontend::{lower_preprocessed, parse::preprocess, FrontendOptions};
use common::{fixture_files, header, Rng};

const RUNS: usize = 20;

/// The outcome without locations (which passes renumber); `None` for the step limit.
fn class(o: &Outcome) -> Option<String> {
    match o {
        Outcome::Error { property, .. } => Some(format!("error {property}")),
        Outcome::Sink { reason, .. } => Some(format!("sink {reason}")),
        Outcome::Exit => Some("exit".into()),
        Outcome::AssumeFailed { .. } => Some("blocked".into()),
        Outcome::NondetExhausted { .. } => Some("exhausted".into()),
        Outcome::StepLimit { .. } => None,
    }
}

fn target_class(o: &Outcome) -> Option<String> {
    match o {
        Outcome::Error { .. } | Outcome::Sink { .. } => class(o),
        Outcome::StepLimit { .. } => None,
        _ => Some("no target".into()),
    }
}

type Pass = (&'static str, fn(&Cfa) -> Cfa, bool);

fn split_after_lbe(c: &Cfa) -> Cfa {
    let l = large_block_encoding(c);
    split_choices(&l).unwrap_or(l)
}

fn pipeline(c: &Cfa) -> Cfa {
    bitmc::cfa::optimize(c)
}

const PASSES: [Pass; 6] = [
    ("split after large-block encoding", split_after_lbe, true),
    ("large-block encoding", large_block_encoding, true),
    (
        "constant and copy propagation",
        propagate_constants_and_copies,
        true,
    ),
    ("dead-variable elimination", eliminate_dead_variables, true),
    ("cone of influence", cone_of_influence, false),
    ("pipeline", pipeline, false),
];

#[test]
fn passes_keep_behaviour_on_fixtures() {
    let files = fixture_files();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(4);
    let results: Vec<(Vec<String>, usize, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let files = &files;
                s.spawn(move || check_fixtures(files, t, threads))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    assert_eq!(results.len(), threads, "a worker panicked");
    let mut failures = Vec::new();
    let (mut checked, mut reached_targets) = (0, 0);
    for (f, c, r) in results {
        failures.extend(f);
        checked += c;
        reached_targets += r;
    }
    eprintln!("passes: {checked} comparisons, {reached_targets} base runs reached a target");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Checks the fixtures `t`, `t + n`, `t + 2n`, …: (failures, comparisons, targets reached).
fn check_fixtures(files: &[std::path::PathBuf], t: usize, n: usize) -> (Vec<String>, usize, usize) {
    let mut failures = Vec::new();
    let mut checked = 0usize;
    let mut reached_targets = 0usize;
    for (fi, f) in files.iter().enumerate().skip(t).step_by(n) {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if header(&text).unsupported {
            continue;
        }
        let pool = common::literal_pool(&text);
        let dm = if fi % 2 == 0 {
            DataModel::Ilp32
        } else {
            DataModel::Lp64
        };
        let pre = match preprocess(f, dm) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let name = f.display().to_string();
        for (pi, &prop) in Property::ALL.iter().enumerate() {
            let opts = FrontendOptions {
                property: prop,
                data_model: dm,
                lbe: false,
                ..Default::default()
            };
            let base = match lower_preprocessed(pre.clone(), &name, &opts) {
                Ok(l) => l.cfa,
                Err(e) => {
                    failures.push(format!("{}: {e}", f.display()));
                    continue;
                }
            };
            let derived: Vec<(&str, Cfa, bool)> = PASSES
                .iter()
                .map(|(n, p, exact)| (*n, p(&base), *exact))
                .collect();
            for (n, c, _) in &derived {
                if let Err(e) = c.check() {
                    failures.push(format!("{} [{prop}] {n}: invalid CFA: {e}", f.display()));
                }
            }
            let mut rng = Rng(
                0x5eed ^ ((fi * 31 + pi) as u64 + 7).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                pool.clone(),
            );
            for _ in 0..RUNS {
                let seq: Vec<u128> = rng.sequence(24).into_iter().map(u128::from).collect();
                let ro = RunOptions {
                    step_limit: 50_000,
                    uninit_zero: true,
                    record: false,
                };
                let (o0, _) = run_with(&base, &seq, ro);
                if o0.is_target() {
                    reached_targets += 1;
                }
                if class(&o0).is_none() {
                    // The step limit: no outcome to compare (a pass may shorten the run).
                    continue;
                }
                for (n, c, exact) in &derived {
                    let (o1, _) = run_with(c, &seq, ro);
                    let (a, b) = if *exact {
                        (class(&o0), class(&o1))
                    } else {
                        (target_class(&o0), target_class(&o1))
                    };
                    if let (Some(a), Some(b)) = (a, b) {
                        checked += 1;
                        if a != b {
                            failures.push(format!(
                                "{} [{prop}, {dm}] {n}: nondet {seq:?}: before {o0:?}, after {o1:?}",
                                f.display()
                            ));
                        }
                    }
                }
            }
        }
    }
    (failures, checked, reached_targets)
}

/// What `cfa::optimize` promises about size, per fixture: the propagation passes, dead-variable
/// elimination and the cone of influence never add an atomic command or a location; large-block
/// encoding removes locations, and the commands it copies (an incoming edge prefixed to each
/// outgoing one) stay within its budget of 64 copied commands per removed location. Over all
/// fixtures the pipeline removes locations and the passes before large-block encoding remove
/// commands (the limits of its copies are `cfa::tests::lbe_copies_only_within_its_limits`).
#[test]
fn passes_shrink_the_cfa() {
    const COPY_BUDGET: usize = 64;
    let (mut before, mut reduced, mut after) = ((0, 0), (0, 0), (0, 0));
    let mut failures = Vec::new();
    let size = |c: &Cfa| (c.locations.len(), c.atom_count());
    for f in fixture_files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        if header(&text).unsupported {
            continue;
        }
        let opts = FrontendOptions {
            lbe: false,
            ..Default::default()
        };
        let Ok(pre) = preprocess(&f, opts.data_model) else {
            continue;
        };
        let Ok(l) = lower_preprocessed(pre, &f.display().to_string(), &opts) else {
            continue;
        };
        let r = cone_of_influence(&eliminate_dead_variables(&propagate_constants_and_copies(
            &l.cfa,
        )));
        let p = large_block_encoding(&r);
        let (s0, s1, s2) = (size(&l.cfa), size(&r), size(&p));
        if s1.0 > s0.0 || s1.1 > s0.1 {
            failures.push(format!("{}: reductions grew {s0:?} -> {s1:?}", f.display()));
        }
        let removed = s1.0.saturating_sub(s2.0);
        if s2.0 > s1.0 || s2.1 > s1.1 + COPY_BUDGET * removed {
            failures.push(format!(
                "{}: large-block encoding {s1:?} -> {s2:?} (budget {COPY_BUDGET} per removed location)",
                f.display()
            ));
        }
        for (acc, s) in [(&mut before, s0), (&mut reduced, s1), (&mut after, s2)] {
            acc.0 += s.0;
            acc.1 += s.1;
        }
    }
    eprintln!(
        "(locations, atomic commands): {before:?} -> reductions {reduced:?} -> large blocks {after:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(reduced.1 < before.1, "the reductions removed no command");
    assert!(after.0 < before.0, "the pipeline removed no location");
}
