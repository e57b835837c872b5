//! The expected verdicts of the fixtures against random executions of their CFAs, for every
//! property (the gcc oracle only covers reachability of errors): when a fixture says a
//! property holds, no execution may reach the error location (nor an UNKNOWN sink for
//! undefined behaviour that the header does not admit); when it says a property is violated and gives a witness
//! (`// witness: …`), the witness must reach the error location.

mod common;

use bitmc::cfa::{run_with, DataModel, Outcome, Property, RunOptions};
use bitmc::frontend::{lower_preprocessed, parse::preprocess, FrontendOptions};
use common::{fixture_files, header, Rng};

const RUNS: usize = 30;

/// What the random executions of one fixture found.
#[derive(Default)]
struct Found {
    failures: Vec<String>,
    expected_false: usize,
    found: usize,
    witnessed: usize,
}

#[test]
fn random_executions_respect_expected_verdicts() {
    let files = fixture_files();
    let mut all = Found::default();
    for r in common::parallel(&files, |fi, f| executions_of(fi, f)) {
        all.failures.extend(r.failures);
        all.expected_false += r.expected_false;
        all.found += r.found;
        all.witnessed += r.witnessed;
    }
    let Found {
        failures,
        expected_false,
        found,
        witnessed,
    } = all;
    eprintln!(
        "expectations: {witnessed} witnesses replayed; {found} of {expected_false} expected \
         violations also found by random runs"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The witness and the random executions of fixture number `fi` under both data models and
/// every property its header gives a verdict for.
fn executions_of(fi: usize, f: &std::path::Path) -> Found {
    let mut out = Found::default();
    let Ok(text) = std::fs::read_to_string(f) else {
        return out;
    };
    let h = header(&text);
    if h.unsupported {
        return out;
    }
    let pool = common::literal_pool(&text);
    for dm in [DataModel::Ilp32, DataModel::Lp64] {
        let Ok(pre) = preprocess(f, dm) else {
            out.failures
                .push(format!("{}: cannot preprocess", f.display()));
            continue;
        };
        for prop in Property::ALL {
            let Some(holds) = h.verdict(prop, dm) else {
                continue;
            };
            let opts = FrontendOptions {
                property: prop,
                data_model: dm,
                ..Default::default()
            };
            let cfa = match lower_preprocessed(pre.clone(), &f.display().to_string(), &opts) {
                Ok(l) => l.cfa,
                Err(e) => {
                    out.failures.push(format!("{}: {e}", f.display()));
                    continue;
                }
            };
            let mut rng = Rng(
                (fi as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ prop as u64,
                pool.clone(),
            );
            if let (false, Some(w)) = (holds, h.witness(prop, dm)) {
                let seq: Vec<u128> = w.iter().map(|&v| u128::from(v)).collect();
                let ro = RunOptions {
                    step_limit: 200_000,
                    uninit_zero: true,
                    record: false,
                };
                let (o, _) = run_with(&cfa, &seq, ro);
                out.witnessed += 1;
                if !matches!(o, Outcome::Error { .. }) {
                    out.failures.push(format!(
                        "{} [{prop}, {dm}]: the witness {w:?} gives {o:?}",
                        f.display()
                    ));
                }
            }
            let mut violated = false;
            for _ in 0..RUNS {
                let seq: Vec<u128> = rng.sequence(24).into_iter().map(u128::from).collect();
                let ro = RunOptions {
                    step_limit: 20_000,
                    uninit_zero: false,
                    record: false,
                };
                let (o, _) = run_with(&cfa, &seq, ro);
                let bad = match &o {
                    Outcome::Error { .. } => true,
                    Outcome::Sink { reason, .. } => !h.sink_allowed(reason, dm),
                    _ => false,
                };
                if bad && holds {
                    out.failures.push(format!(
                        "{} [{prop}, {dm}]: expected to hold, but nondet {seq:?} gives {o:?}",
                        f.display()
                    ));
                    break;
                }
                violated |= matches!(o, Outcome::Error { .. });
            }
            if !holds {
                out.expected_false += 1;
                out.found += usize::from(violated);
                if !violated && std::env::var("BITMC_SHOW_MISSED").is_ok() {
                    eprintln!("not found: {} [{prop}, {dm}]", f.display());
                }
            }
        }
    }
    out
}

/// The header parser is strict: a malformed item panics instead of being dropped, and every
/// fixture's header parses, with an unreach-call expectation unless it is an error fixture.
#[test]
fn headers_parse_strictly() {
    for bad in [
        "// expect: unreach-call=flase\nint main(void){return 0;}\n",
        "// expect: unreach-cal=false\nint main(void){return 0;}\n",
        "// expect: unreach-call\nint main(void){return 0;}\n",
        "// expect(lp64): no-overflow=yes\nint main(void){return 0;}\n",
        "// expect: unreach-call=true unreach-call=false\nint main(void){return 0;}\n",
        "// witness: 1, x2\nint main(void){return 0;}\n",
        "// expect: error=unsupported-ish\n",
    ] {
        let r = std::panic::catch_unwind(|| header(bad));
        assert!(r.is_err(), "accepted a malformed header: {bad:?}");
    }
    let h = header("// expect: unreach-call=false no-overflow=unknown\n// expect(lp64): unreach-call=true\n// witness(lp64): 1, 18446744073709551615\nint x;\n");
    assert_eq!(h.expect, [(Property::UnreachCall, false)]);
    assert_eq!(h.expect_lp64, [(Property::UnreachCall, true)]);
    assert_eq!(h.unknown, [(Property::NoOverflow, false)]);
    assert_eq!(h.witnesses, [(Some("lp64".to_string()), vec![1, u64::MAX])]);
    let mut n = 0;
    for f in fixture_files() {
        let text = std::fs::read_to_string(&f).expect("readable fixture");
        let h = std::panic::catch_unwind(|| header(&text))
            .unwrap_or_else(|_| panic!("{}: malformed header (above)", f.display()));
        assert!(
            h.unsupported
                || h.verdict(Property::UnreachCall, DataModel::Ilp32).is_some()
                || h.ub_dependent(Property::UnreachCall, DataModel::Ilp32),
            "{}: no unreach-call expectation",
            f.display()
        );
        n += 1;
    }
    assert!(n > 200, "only {n} fixtures");
}
