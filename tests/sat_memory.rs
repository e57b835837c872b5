//! CaDiCaL out of memory: an allocation failure inside the solver (a C++ `std::bad_alloc`) ends
//! that solver only. It must not abort the process; the solver then answers `Interrupted`,
//! records [`Failure::OutOfMemory`] for the thread, returns its memory, and a new solver works.
//!
//! The solver runs in a child process (this test binary again, running only the child test)
//! under an address-space limit, so the failure cannot touch the other tests.

use bitmc::sat::cadical::CadicalSolver;
use bitmc::sat::{take_failure, Failure, Interrupter, Lit, SatError, SolveResult, Solver, Var};
use std::process::Command;

const CHILD: &str = "BITMC_SAT_MEMORY_CHILD";

/// The address space of this process in bytes.
fn address_space() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm.split_whitespace().next().unwrap().parse().unwrap();
    pages * 4096
}

#[test]
fn cadical_out_of_memory_is_a_failure_not_an_abort() {
    let exe = std::env::current_exe().expect("test binary");
    let out = Command::new(exe)
        .args([
            "--exact",
            "child_fills_memory",
            "--include-ignored",
            "--nocapture",
        ])
        .args(["--test-threads", "1"])
        .env(CHILD, "1")
        .output()
        .expect("child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "child failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains("child: out of memory after"),
        "the child did not run out of memory:\n{stdout}\n{stderr}"
    );
}

/// Run by the test above in a child process only.
#[test]
#[ignore = "run in a child process by cadical_out_of_memory_is_a_failure_not_an_abort"]
fn child_fills_memory() {
    if std::env::var(CHILD).is_err() {
        return;
    }
    // 256 MiB more than the process has now.
    let limit = address_space() + (256 << 20);
    let lim = libc::rlimit {
        rlim_cur: limit as libc::rlim_t,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: `setrlimit` only reads the `rlimit` it is given.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &lim) }, 0);
    let mut s = CadicalSolver::new(Interrupter::new());
    // Long clauses over ever new variables until the solver stops accepting work: a solve
    // after every batch, so that an allocation inside `solve` can fail too.
    let mut clause = Vec::with_capacity(64);
    let mut next = 0u32;
    let mut batches = 0u64;
    let result = loop {
        for _ in 0..20_000 {
            clause.clear();
            for k in 0..32 {
                clause.push(Lit::new(Var(next), k % 3 == 0));
                next += 1;
            }
            s.add_clause(&clause);
        }
        batches += 1;
        let r = s.solve(&[Lit::new(Var(0), false)]);
        if r != SolveResult::Sat || batches > 100_000 {
            break r;
        }
    };
    assert_eq!(
        result,
        SolveResult::Interrupted,
        "the formula is satisfiable"
    );
    assert_eq!(
        take_failure(),
        Some(Failure::OutOfMemory { during: "cadical" })
    );
    assert!(take_failure().is_none(), "a failure is reported once");
    assert!(matches!(
        s.value(Lit::new(Var(0), false)),
        Err(SatError::Failed { .. }) | Err(SatError::NoModel { .. })
    ));
    assert_eq!(
        s.solve(&[]),
        SolveResult::Interrupted,
        "a failed solver stays failed"
    );
    // The failed solver gave its memory back: a new one solves what the old one held.
    let mut t = CadicalSolver::new(Interrupter::new());
    for _ in 0..(batches / 2).max(1) {
        for _ in 0..20_000 {
            clause.clear();
            for k in 0..32 {
                clause.push(Lit::new(Var(next % 1_000_000), k % 3 == 0));
                next += 1;
            }
            t.add_clause(&clause);
        }
    }
    assert_eq!(t.solve(&[]), SolveResult::Sat);
    assert!(take_failure().is_none());
    println!(
        "child: out of memory after {batches} batches of 20,000 clauses ({next} literals in all), \
         limit {} MiB",
        limit >> 20
    );
}
