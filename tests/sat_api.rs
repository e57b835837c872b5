//! API contract of every SAT backend: misuse is an error (never an abort), edge cases (empty
//! clause, no clauses, no assumptions, contradicting assumptions, the variable limit), freeze and
//! melt, capabilities, and interruption from another thread.

mod sat_common;

use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use bitmc::sat::{
    Backend, Capabilities, Interrupter, Lit, SatError, SolveResult, Solver, Var, MAX_VARS,
};
use sat_common::{check_core, check_model, loaded, pigeonhole};

fn lit(d: i32) -> Lit {
    Lit::from_dimacs(d)
}

fn clause(ds: &[i32]) -> Vec<Lit> {
    ds.iter().map(|&d| lit(d)).collect()
}

/// `(1 ∨ 2) ∧ (¬1 ∨ 2)`: SAT, `2` forced; UNSAT under `¬2`.
fn small(backend: Backend) -> Box<dyn Solver> {
    loaded(backend, &[clause(&[1, 2]), clause(&[-1, 2])])
}

fn is_no_model(r: Result<Option<bool>, SatError>) -> bool {
    matches!(r, Err(SatError::NoModel { .. }))
}

fn is_no_core(r: Result<bool, SatError>) -> bool {
    matches!(r, Err(SatError::NoCore { .. }))
}

#[test]
fn queries_before_any_solve_are_errors() {
    for b in Backend::ALL {
        let s = small(b);
        assert!(is_no_model(s.value(lit(1))), "{b}");
        assert!(is_no_core(s.failed(lit(1))), "{b}");
    }
}

#[test]
fn value_after_unsat_and_failed_after_sat_are_errors() {
    for b in Backend::ALL {
        let mut s = small(b);
        assert_eq!(s.solve(&[lit(-2)]), SolveResult::Unsat, "{b}");
        assert!(is_no_model(s.value(lit(1))), "{b}");
        assert!(is_no_model(s.value(lit(-2))), "{b}");
        assert_eq!(s.failed(lit(-2)), Ok(true), "{b}");
        assert_eq!(s.solve(&[lit(2)]), SolveResult::Sat, "{b}");
        assert!(is_no_core(s.failed(lit(2))), "{b}");
        assert_eq!(s.value(lit(2)), Ok(Some(true)), "{b}");
        assert_eq!(s.value(lit(-2)), Ok(Some(false)), "{b}");
        assert!(s.model_value(lit(2)) && !s.model_value(lit(-2)), "{b}");
    }
}

#[test]
fn failed_of_a_non_assumption_is_an_error() {
    for b in Backend::ALL {
        let mut s = small(b);
        assert_eq!(s.solve(&[lit(1), lit(-2)]), SolveResult::Unsat, "{b}");
        for d in [-1, 2, 3, 1000] {
            assert!(
                matches!(s.failed(lit(d)), Err(SatError::NotAnAssumption { lit: l, .. }) if l == d),
                "{b}: failed({d}) = {:?}",
                s.failed(lit(d))
            );
        }
        assert_eq!(s.failed(lit(-2)), Ok(true), "{b}");
        // A solve without assumptions has no assumption to ask about.
        s.add_clause(&clause(&[-2]));
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "{b}");
        assert!(
            matches!(s.failed(lit(1)), Err(SatError::NotAnAssumption { .. })),
            "{b}"
        );
    }
}

#[test]
fn value_of_an_unknown_variable_is_none() {
    for b in Backend::ALL {
        let mut s = small(b);
        let fresh = s.new_var();
        assert_eq!(fresh, Var(2), "{b}");
        assert_eq!(s.num_vars(), 3, "{b}");
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{b}");
        assert_eq!(s.value(fresh.pos()), Ok(None), "{b}");
        assert_eq!(s.value(Var(1000).neg()), Ok(None), "{b}");
        assert_eq!(s.value(Var(MAX_VARS + 5).pos()), Ok(None), "{b}");
        assert!(!s.model_value(Var(1000).pos()), "{b}");
    }
}

#[test]
fn adding_a_clause_ends_the_answer_of_the_last_solve() {
    for b in Backend::ALL {
        let mut s = small(b);
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{b}");
        s.add_clause(&clause(&[1, 3]));
        assert!(is_no_model(s.value(lit(2))), "{b}");
        assert_eq!(s.solve(&[lit(-2)]), SolveResult::Unsat, "{b}");
        s.add_clause(&clause(&[-3]));
        assert!(is_no_core(s.failed(lit(-2))), "{b}");
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{b}");
        assert_eq!(s.value(lit(1)), Ok(Some(true)), "{b}");
        assert_eq!(s.num_vars(), 3, "{b}");
    }
}

#[test]
fn empty_clause_makes_the_solver_unsat_for_good() {
    for b in Backend::ALL {
        let mut s = small(b);
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{b}");
        s.add_clause(&[]);
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "{b}");
        let assumptions = [lit(1), lit(3)];
        assert_eq!(s.solve(&assumptions), SolveResult::Unsat, "{b}");
        for a in assumptions {
            assert!(s.failed(a).is_ok(), "{b}");
        }
        s.add_clause(&clause(&[4, 5]));
        assert_eq!(s.solve(&[lit(4)]), SolveResult::Unsat, "{b}");
        // On a fresh solver, too.
        let mut s = b.create(&Interrupter::new());
        s.add_clause(&[]);
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "{b}");
    }
}

#[test]
fn no_clauses_no_assumptions_and_contradicting_assumptions() {
    for b in Backend::ALL {
        let mut s = b.create(&Interrupter::new());
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{b}");
        let x = s.new_var();
        let y = s.new_var();
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{b}");
        assert_eq!(s.solve(&[x.pos(), y.neg()]), SolveResult::Sat, "{b}");
        assert_eq!(s.value(x.pos()), Ok(Some(true)), "{b}");
        assert_eq!(s.value(y.pos()), Ok(Some(false)), "{b}");
        // Duplicates are fine.
        assert_eq!(
            s.solve(&[x.pos(), x.pos(), y.neg()]),
            SolveResult::Sat,
            "{b}"
        );
        // The only core of {x, ¬x} is both.
        assert_eq!(
            s.solve(&[y.pos(), x.pos(), x.neg()]),
            SolveResult::Unsat,
            "{b}"
        );
        assert_eq!(s.failed(x.pos()), Ok(true), "{b}");
        assert_eq!(s.failed(x.neg()), Ok(true), "{b}");
        check_core(&*s, &[], &[y.pos(), x.pos(), x.neg()]).unwrap_or_else(|e| panic!("{b}: {e}"));
    }
}

#[test]
fn variables_past_the_limit_answer_interrupted_never_abort() {
    for b in Backend::ALL {
        let mut s = small(b);
        assert_eq!(s.solve(&[lit(-2)]), SolveResult::Unsat, "{b}");
        // An assumption past the limit: no solve, no abort, and the solver stays usable.
        assert_eq!(
            s.solve(&[Var(MAX_VARS).pos()]),
            SolveResult::Interrupted,
            "{b}"
        );
        assert!(is_no_model(s.value(lit(1))), "{b}");
        assert_eq!(s.solve(&[lit(-1)]), SolveResult::Sat, "{b}");
        // A clause past the limit poisons the solver for good.
        s.add_clause(&[lit(1), Var(MAX_VARS + 7).pos()]);
        assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{b}");
        assert!(
            matches!(s.value(lit(1)), Err(SatError::TooManyVars { .. })),
            "{b}"
        );
        assert!(
            matches!(s.failed(lit(1)), Err(SatError::TooManyVars { .. })),
            "{b}"
        );
        assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{b}");
    }
}

#[test]
fn freeze_and_melt_keep_answers_correct() {
    for b in Backend::ALL {
        let mut s = small(b);
        s.freeze(Var(0));
        s.freeze(Var(0));
        s.melt(Var(0));
        s.melt(Var(0));
        s.melt(Var(0)); // one more than frozen: ignored
        s.melt(Var(1)); // never frozen: ignored
        s.freeze(Var(40)); // not mentioned by any clause
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{b}");
        // freeze/melt do not end the answer of the last solve.
        s.freeze(Var(1));
        assert_eq!(s.value(lit(2)), Ok(Some(true)), "{b}");
        s.melt(Var(1));
        assert_eq!(s.solve(&[lit(-2)]), SolveResult::Unsat, "{b}");
        s.freeze(Var(0));
        assert_eq!(s.failed(lit(-2)), Ok(true), "{b}");
        assert_eq!(s.solve(&[lit(-1)]), SolveResult::Sat, "{b}");
        assert_eq!(s.value(Var(40).pos()), Ok(None), "{b}");
    }
}

#[test]
fn capabilities_are_as_documented() {
    let full = Capabilities {
        incremental: true,
        assumptions: true,
        core: true,
        interruptible: true,
    };
    let caps = |b: Backend| b.create(&Interrupter::new()).capabilities();
    assert_eq!(caps(Backend::Cadical), full);
    assert_eq!(caps(Backend::Batsat), full);
    assert_eq!(
        caps(Backend::Varisat),
        Capabilities {
            interruptible: false,
            ..full
        }
    );
    let none = Capabilities {
        incremental: false,
        assumptions: false,
        core: false,
        interruptible: false,
    };
    assert_eq!(caps(Backend::Splr), none);
    for b in Backend::ALL {
        assert_eq!(b.create(&Interrupter::new()).name(), b.name());
    }
}

#[test]
fn threading_is_as_documented() {
    fn is_send<T: Send>() {}
    fn is_sync<T: Sync>() {}
    is_send::<bitmc::sat::cadical::CadicalSolver>();
    is_send::<bitmc::sat::batsat::BatsatSolver>();
    is_sync::<bitmc::sat::batsat::BatsatSolver>();
    is_send::<bitmc::sat::splr::SplrSolver>();
    is_sync::<bitmc::sat::splr::SplrSolver>();
    is_send::<Interrupter>();
    is_sync::<Interrupter>();
}

/// Run `f` on a worker thread and return its result; fail if it does not finish within
/// `deadline` (a solve that ignores the interrupter must fail the test, not hang it).
fn within<T: Send + 'static>(
    what: String,
    deadline: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(deadline) {
        Ok(v) => v,
        Err(RecvTimeoutError::Timeout) => panic!("{what}: not done within {deadline:?}"),
        Err(RecvTimeoutError::Disconnected) => panic!("{what}: the worker panicked"),
    }
}

#[test]
fn raised_flag_answers_interrupted_at_once_until_reset() {
    for b in Backend::ALL {
        within(format!("{b}"), Duration::from_secs(20), move || {
            let flag = Interrupter::new();
            // A hard instance: no backend would answer it within the bound below.
            let mut s = b.create(&flag);
            for c in pigeonhole(12, 11).clauses {
                s.add_clause(&c);
            }
            s.interrupter().interrupt();
            let start = Instant::now();
            assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{b}");
            let elapsed = start.elapsed();
            assert!(elapsed < Duration::from_secs(1), "{b}: {elapsed:?}");
            assert!(is_no_model(s.value(lit(1))), "{b}");
            assert!(is_no_core(s.failed(lit(1))), "{b}");
            flag.reset();
            // Pigeons 0 and 1 both in hole 0: they collide.
            assert_eq!(s.solve(&[lit(1), lit(12)]), SolveResult::Unsat, "{b}");
        });
    }
}

/// A hard query (pigeonhole 12/11 behind the activation literal `g`) next to an easy one (`¬g`),
/// so the solver can be interrupted and then used again; also the clauses, for checking.
fn guarded_pigeonhole(b: Backend, flag: &Interrupter) -> (Box<dyn Solver>, Lit, Vec<Vec<Lit>>) {
    let mut s = b.create(flag);
    let php = pigeonhole(12, 11);
    let g = Var(php.num_vars).pos();
    let mut clauses = php.clauses;
    for c in &mut clauses {
        c.push(!g);
        s.add_clause(c);
    }
    (s, g, clauses)
}

/// Three rounds of: stop the hard query from another thread after 100 ms, lower the flag, and
/// check answers on the easy side. Returns the latencies from raising the flag to `solve`
/// returning.
fn interrupt_rounds(b: Backend) -> Vec<Duration> {
    let flag = Interrupter::new();
    let (mut s, g, clauses) = guarded_pigeonhole(b, &flag);
    let mut latencies = Vec::new();
    for round in 0..3 {
        let handle = s.interrupter();
        let raiser = thread::spawn(move || {
            thread::sleep(Duration::from_millis(100));
            handle.interrupt();
            Instant::now()
        });
        let r = s.solve(&[g]);
        let returned = Instant::now();
        let raised = raiser.join().expect("the raising thread panicked");
        assert_eq!(r, SolveResult::Interrupted, "{b} round {round}");
        latencies.push(returned.saturating_duration_since(raised));
        assert!(is_no_model(s.value(g)), "{b}");
        assert!(is_no_core(s.failed(g)), "{b}");
        flag.reset();
        // Usable again, with correct answers, on the easy side.
        assert_eq!(s.solve(&[!g]), SolveResult::Sat, "{b}");
        check_model(&*s, &clauses, &[!g]).unwrap_or_else(|e| panic!("{b}: {e}"));
        let assumptions = [lit(1), !g, lit(12), g];
        assert_eq!(s.solve(&assumptions), SolveResult::Unsat, "{b}");
        check_core(&*s, &clauses, &assumptions).unwrap_or_else(|e| panic!("{b}: {e}"));
    }
    latencies
}

#[test]
fn running_solve_is_stopped_from_another_thread() {
    for b in [Backend::Cadical, Backend::Batsat] {
        let latencies = within(format!("{b}"), Duration::from_secs(20), move || {
            interrupt_rounds(b)
        });
        eprintln!("{b}: interrupt latencies {latencies:?}");
        for l in latencies {
            assert!(l < Duration::from_secs(2), "{b}: latency {l:?}");
        }
    }
}
