//! CaDiCaL 1.9.5 through its C API (`ccadical_*`), which the `cadical` crate compiles into its
//! static library; that crate's own wrapper is not used, because its state checks are only
//! `debug_assert!`s and its solver handle is private (no freeze/melt).
//!
//! Safety of the API: CaDiCaL aborts the whole process (`REQUIRE`, active in release builds) on
//! misuse, e.g. `val` outside the SAT state, `failed` outside the UNSAT state, `melt` of a
//! variable that is not frozen. [`CadicalSolver`] tracks the state in Rust (`common::Tracker`) and
//! calls CaDiCaL only when the call is valid; everything else is a [`SatError`].
//!
//! Limits:
//! - incremental with assumptions; `failed` is CaDiCaL's own core (not minimal, usually small);
//! - interrupt: a terminate callback polls the [`Interrupter`] every few conflicts
//!   (`terminateint`); measured 0.03–0.2 ms from raising the flag to `solve` returning
//!   (pigeonhole 12/11, one outlier of 8 ms on a loaded machine); the solver stays usable.
//!   Some inprocessing steps do not poll at all, so on a formula of millions of clauses they
//!   run to their end: BMC of a 12-bit counter unrolled 10,000–25,000 steps overshot
//!   `--timeout` by 0.08–0.8 s, stopped in `elim` (vivification's sort of its schedule, watch
//!   lists rebuilt) or `probe` (`decompose`); with vivification off still 0.2 s;
//! - [`Solver::freeze`]/[`Solver::melt`] map to `ccadical_freeze`/`ccadical_melt` (reference
//!   counted); they are queued and applied right before the next solve, so they never disturb
//!   the answer of the last one. CaDiCaL restores eliminated variables by itself when they are
//!   used again, so freezing is a performance hint only;
//! - threading: [`CadicalSolver`] is `Send` (no thread affinity in CaDiCaL) but not `Sync`:
//!   even `val` mutates the C++ object.
//! - a C++ exception (in practice `std::bad_alloc` under a memory limit) cannot unwind into Rust
//!   (the process would abort), so every call goes through `cadical_shim.cpp`, which catches it
//!   and returns a status. The solver is then released at once (its memory goes back to the
//!   other engines), every later `solve` answers [`SolveResult::Interrupted`], and the failure
//!   is recorded for the thread ([`super::take_failure`]): [`Failure::OutOfMemory`] for an
//!   allocation failure, [`Failure::Exception`] otherwise.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_ulong, c_void};
use std::ptr::NonNull;

// Only the static library of the crate is used (it also pulls in the C++ runtime).
use cadical as _;

use super::common::{RawSolver, Tracker};
use super::{
    record_failure, Capabilities, ExceptionText, Failure, Interrupter, Lit, SatError, SolveResult,
    Var, MAX_VARS,
};

/// CaDiCaL's opaque `CCaDiCaL` handle.
#[repr(C)]
struct CCaDiCaL {
    _opaque: [u8; 0],
}

/// The signature of the terminate callback: `int (*terminate)(void *state)`.
type TerminateFn = unsafe extern "C" fn(state: *mut c_void) -> c_int;

/// A status of the shim: the call completed.
const OK: c_int = 0;
/// A status of the shim: an allocation failed (`std::bad_alloc`, `std::length_error`).
const NO_MEMORY: c_int = 1;

// The functions of `cadical_shim.cpp`: each wraps one step of CaDiCaL's C API in a `try` and
// returns `OK`, `NO_MEMORY` or another status (an exception, whose text
// `bitmc_cadical_last_exception` gives).
extern "C" {
    fn bitmc_cadical_last_exception() -> *const c_char;
    fn bitmc_cadical_init(out: *mut *mut CCaDiCaL) -> c_int;
    fn bitmc_cadical_release(solver: *mut CCaDiCaL) -> c_int;
    fn bitmc_cadical_add_clause(solver: *mut CCaDiCaL, lits: *const c_int, len: c_ulong) -> c_int;
    fn bitmc_cadical_solve(
        solver: *mut CCaDiCaL,
        assumptions: *const c_int,
        len: c_ulong,
        out: *mut c_int,
    ) -> c_int;
    fn bitmc_cadical_val(solver: *mut CCaDiCaL, lit: c_int, out: *mut c_int) -> c_int;
    fn bitmc_cadical_failed(solver: *mut CCaDiCaL, lit: c_int, out: *mut c_int) -> c_int;
    fn bitmc_cadical_set_terminate(
        solver: *mut CCaDiCaL,
        state: *mut c_void,
        terminate: Option<TerminateFn>,
    ) -> c_int;
    fn bitmc_cadical_set_option(solver: *mut CCaDiCaL, name: *const c_char, val: c_int) -> c_int;
    fn bitmc_cadical_freeze(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn bitmc_cadical_melt(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
}

/// Options set on every solver right after creation. The "lucky" phase tries trivial
/// assignments at the start of every `solve`; on the large, incremental formulas of unrolled
/// programs it costs time on every call and checks for termination only rarely (it delayed
/// interrupts by a second), so it is off. `terminateint` is how many of CaDiCaL's termination
/// checks pass before it calls the terminator: by default 10, and in failed-literal probing
/// of an unrolling each check is ten probes that propagate through every step, so a BMC run
/// at 2,653 steps stopped 10–45 ms after its `--timeout`; calling the terminator (one atomic
/// load) at every check brought that to 7–16 ms and cost nothing measurable (eight control
/// tasks with PDR, k-induction, BMC and IC3CFA: 53.5 s against 54.3 s).
const OPTIONS: [(&std::ffi::CStr, c_int); 2] = [(c"lucky", 0), (c"terminateint", 0)];

/// CaDiCaL's answers of `ccadical_solve`.
const SATISFIABLE: c_int = 10;
const UNSATISFIABLE: c_int = 20;

/// The terminate callback: whether the [`Interrupter`] behind `state` is raised.
///
/// # Safety
/// `state` must point to a live `Interrupter` (the one boxed in [`CadicalSolver`]).
unsafe extern "C" fn poll_interrupter(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the address of the `Box<Interrupter>` registered in
    // `CadicalSolver::new`. The box is neither moved out nor dropped before `ccadical_release`
    // in `Drop`, after which CaDiCaL no longer calls back, and it is only read here.
    let interrupter = unsafe { &*(state as *const Interrupter) };
    c_int::from(interrupter.is_interrupted())
}

/// A pending [`Solver::freeze`] (`true`) or [`Solver::melt`] (`false`).
type FreezeOp = (Var, bool);

/// A CaDiCaL instance behind the [`Solver`] trait.
pub struct CadicalSolver {
    /// The CaDiCaL handle, owned: released in `Drop`, or at once when a call into it fails
    /// (`None` from then on).
    raw: Option<NonNull<CCaDiCaL>>,
    /// Boxed so that its address, given to CaDiCaL as callback state, stays fixed.
    interrupter: Box<Interrupter>,
    tracker: Tracker,
    /// One more than the largest variable passed to CaDiCaL in a clause or an assumption.
    seen: u32,
    /// Freeze and melt requests, applied in order before the next solve.
    pending: Vec<FreezeOp>,
    /// The DIMACS literals of the clause or the assumptions being passed on.
    buf: Vec<c_int>,
}

// SAFETY: CaDiCaL keeps no thread-local or thread-affine state, so the handle may move to another
// thread together with its owner (the shim's exception text is per thread, but it is read right
// after the failing call, on the same thread). `CadicalSolver` is not `Sync` (it holds a raw
// pointer), so calls into one instance never happen from two threads at once. The callback
// state is an `Interrupter`, which is `Send + Sync`.
unsafe impl Send for CadicalSolver {}

impl CadicalSolver {
    /// A fresh solver that polls `interrupter`. When CaDiCaL cannot even be created (no
    /// memory), the solver starts out failed: every solve answers `Interrupted`.
    pub fn new(interrupter: Interrupter) -> CadicalSolver {
        let mut s = CadicalSolver {
            raw: None,
            interrupter: Box::new(interrupter.clone()),
            tracker: Tracker::new("cadical", interrupter),
            seen: 0,
            pending: Vec::new(),
            buf: Vec::new(),
        };
        let mut raw = std::ptr::null_mut();
        // SAFETY: `bitmc_cadical_init` has no preconditions; on OK it stores a new, owned handle
        // (C++ `new` never yields null), otherwise it stores nothing.
        let status = unsafe { bitmc_cadical_init(&mut raw) };
        if status != OK {
            s.fail(status);
            return s;
        }
        s.raw = NonNull::new(raw);
        let state = &*s.interrupter as *const Interrupter as *mut c_void;
        // SAFETY: `raw` is a live handle in the configuring state, where connecting a terminator
        // is allowed. `state` stays valid for the handle's lifetime (see `poll_interrupter`).
        s.call(|raw| unsafe { bitmc_cadical_set_terminate(raw, state, Some(poll_interrupter)) });
        for (name, val) in OPTIONS {
            // SAFETY: the handle is still in the configuring state (nothing added yet), where
            // options may be set; `name` is a valid NUL-terminated option name of CaDiCaL 1.9.5.
            s.call(|raw| unsafe { bitmc_cadical_set_option(raw, name.as_ptr(), val) });
        }
        s
    }

    /// Run one call of the shim on the live handle; `false` when there is none (an earlier
    /// call failed) or this call failed (the solver is then released, see [`Self::fail`]).
    fn call(&mut self, f: impl FnOnce(*mut CCaDiCaL) -> c_int) -> bool {
        let Some(raw) = self.raw else {
            return false;
        };
        let status = f(raw.as_ptr());
        if status != OK {
            self.fail(status);
            return false;
        }
        true
    }

    /// A call into CaDiCaL failed with `status`: record why for the thread, release the
    /// solver (an exception may have left it inconsistent, and its memory is better spent by
    /// others), and refuse every later solve.
    fn fail(&mut self, status: c_int) {
        let failure = if status == NO_MEMORY {
            Failure::OutOfMemory { during: "cadical" }
        } else {
            // SAFETY: the shim's exception text is a NUL-terminated, thread-local buffer,
            // written by the failing call on this thread just before.
            let what = unsafe { CStr::from_ptr(bitmc_cadical_last_exception()) };
            Failure::Exception {
                backend: "cadical",
                what: ExceptionText::new(&what.to_string_lossy()),
            }
        };
        record_failure(failure);
        self.tracker.give_up();
        if let Some(raw) = self.raw.take() {
            // SAFETY: `raw` is owned and released exactly once (it is taken out of `self.raw`).
            // Destroying a solver needs no allocation; a failure here is ignored (the
            // solver is unusable either way).
            unsafe { bitmc_cadical_release(raw.as_ptr()) };
        }
    }

    /// Note that CaDiCaL now knows the variables of `lits`.
    fn see(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.var().0 + 1).max() {
            self.seen = self.seen.max(max);
        }
    }

    /// Apply the queued freeze/melt requests. Called right before a solve only, so that the
    /// model or core of the previous solve stays queryable until then.
    fn apply_pending(&mut self) {
        for (var, freeze) in std::mem::take(&mut self.pending) {
            let lit = var.pos().to_dimacs();
            // SAFETY: live handle, not in the middle of a clause; `lit` is a valid non-zero
            // literal (`var < MAX_VARS`, checked when queued). The shim melts only a frozen
            // variable (CaDiCaL's requirement).
            let done = self.call(|raw| unsafe {
                if freeze {
                    bitmc_cadical_freeze(raw, lit)
                } else {
                    bitmc_cadical_melt(raw, lit)
                }
            });
            if !done {
                return;
            }
        }
    }
}

impl Drop for CadicalSolver {
    fn drop(&mut self) {
        if let Some(raw) = self.raw.take() {
            // SAFETY: `raw` is owned by `self` and released exactly once, here. No solve is
            // running (that would need `&mut self`). The boxed interrupter is dropped only
            // afterwards.
            unsafe { bitmc_cadical_release(raw.as_ptr()) };
        }
    }
}

impl RawSolver for CadicalSolver {
    const NAME: &'static str = "cadical";
    const CAPABILITIES: Capabilities = Capabilities {
        incremental: true,
        assumptions: true,
        core: true,
        interruptible: true,
    };

    fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    fn tracker_mut(&mut self) -> &mut Tracker {
        &mut self.tracker
    }

    fn add(&mut self, lits: &[Lit]) {
        if self.raw.is_none() {
            return;
        }
        self.see(lits);
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.extend(lits.iter().map(|l| l.to_dimacs()));
        // SAFETY: live handle, no open clause (every call closes its clause); the literals are
        // valid non-zero DIMACS literals (their variables are below `MAX_VARS`, checked by
        // the tracker), `buf` holds `buf.len()` of them. An empty clause makes the formula
        // UNSAT.
        self.call(|raw| unsafe {
            bitmc_cadical_add_clause(raw, buf.as_ptr(), buf.len() as c_ulong)
        });
        self.buf = buf;
    }

    fn run(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.see(assumptions);
        self.apply_pending();
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.extend(assumptions.iter().map(|l| l.to_dimacs()));
        let mut answer: c_int = 0;
        // SAFETY: live handle, no open clause: the ready state `solve` requires; the
        // assumptions are valid (checked by the tracker). The terminate callback's state is
        // valid (see `poll_interrupter`).
        let done = self.call(|raw| unsafe {
            bitmc_cadical_solve(raw, buf.as_ptr(), buf.len() as c_ulong, &mut answer)
        });
        self.buf = buf;
        match answer {
            SATISFIABLE if done => SolveResult::Sat,
            UNSATISFIABLE if done => SolveResult::Unsat,
            _ => SolveResult::Interrupted,
        }
    }

    fn model(&self, lit: Lit) -> Result<Option<bool>, SatError> {
        if !self.tracker.knows(lit.var()) || lit.var().0 >= self.seen {
            return Ok(None);
        }
        let failed = SatError::Failed { backend: "cadical" };
        let raw = self.raw.ok_or(failed.clone())?;
        let mut v: c_int = 0;
        // SAFETY: CaDiCaL is in its SAT state (the last solve answered SAT and nothing was
        // passed to it since: clauses reset the tracker, freeze/melt are queued), which `val`
        // requires; `lit` is valid (`var < seen <= MAX_VARS`).
        let status = unsafe { bitmc_cadical_val(raw.as_ptr(), lit.to_dimacs(), &mut v) };
        if status != OK {
            return Err(failed);
        }
        Ok(Some(v > 0))
    }

    fn core(&self, lit: Lit) -> Result<bool, SatError> {
        let raw = self.raw.ok_or(SatError::Failed { backend: "cadical" })?;
        let mut f: c_int = 0;
        // SAFETY: CaDiCaL is in its UNSAT state (as in `model`), which `failed` requires;
        // `lit` is one of the assumptions of that solve, hence valid. Should the shim report a
        // failure (computing the core ran out of memory), the assumption counts as failed,
        // which keeps the core a superset of a real one.
        let status = unsafe { bitmc_cadical_failed(raw.as_ptr(), lit.to_dimacs(), &mut f) };
        Ok(status != OK || f != 0)
    }

    fn freeze(&mut self, var: Var) {
        if var.0 < MAX_VARS {
            self.pending.push((var, true));
        }
    }

    fn melt(&mut self, var: Var) {
        if var.0 < MAX_VARS {
            self.pending.push((var, false));
        }
    }
}
