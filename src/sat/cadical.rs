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
//!   (pigeonhole 12/11, one outlier of 8 ms on a loaded machine); the solver stays usable;
//! - [`Solver::freeze`]/[`Solver::melt`] map to `ccadical_freeze`/`ccadical_melt` (reference
//!   counted); they are queued and applied right before the next solve, so they never disturb
//!   the answer of the last one. CaDiCaL restores eliminated variables by itself when they are
//!   used again, so freezing is a performance hint only;
//! - threading: [`CadicalSolver`] is `Send` (no thread affinity in CaDiCaL) but not `Sync`:
//!   even `val` mutates the C++ object.
//! - a C++ exception (only `std::bad_alloc` in practice) cannot cross the C API and aborts.

use std::os::raw::{c_int, c_void};
use std::ptr::NonNull;

// Only the static library of the crate is used (it also pulls in the C++ runtime).
use cadical as _;

use super::common::Tracker;
use super::{Capabilities, Interrupter, Lit, SatError, SolveResult, Solver, Var, MAX_VARS};

/// CaDiCaL's opaque `CCaDiCaL` handle.
#[repr(C)]
struct CCaDiCaL {
    _opaque: [u8; 0],
}

/// The signature of the terminate callback: `int (*terminate)(void *state)`.
type TerminateFn = unsafe extern "C" fn(state: *mut c_void) -> c_int;

extern "C" {
    fn ccadical_init() -> *mut CCaDiCaL;
    fn ccadical_release(solver: *mut CCaDiCaL);
    fn ccadical_add(solver: *mut CCaDiCaL, lit: c_int);
    fn ccadical_assume(solver: *mut CCaDiCaL, lit: c_int);
    fn ccadical_solve(solver: *mut CCaDiCaL) -> c_int;
    fn ccadical_val(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_failed(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_set_terminate(
        solver: *mut CCaDiCaL,
        state: *mut c_void,
        terminate: Option<TerminateFn>,
    );
    fn ccadical_freeze(solver: *mut CCaDiCaL, lit: c_int);
    fn ccadical_melt(solver: *mut CCaDiCaL, lit: c_int);
    fn ccadical_frozen(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_set_option(solver: *mut CCaDiCaL, name: *const std::ffi::c_char, val: c_int);
}

/// Options set on every solver right after creation. The "lucky" phase tries trivial
/// assignments at the start of every `solve`; on the large, incremental formulas of unrolled
/// programs it costs time on every call and checks for termination only rarely (it delayed
/// interrupts by a second), so it is off.
const OPTIONS: [(&std::ffi::CStr, c_int); 1] = [(c"lucky", 0)];

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
    /// The CaDiCaL handle, owned: released in `Drop`.
    raw: NonNull<CCaDiCaL>,
    /// Boxed so that its address, given to CaDiCaL as callback state, stays fixed.
    interrupter: Box<Interrupter>,
    tracker: Tracker,
    /// One more than the largest variable passed to CaDiCaL in a clause or an assumption.
    seen: u32,
    /// Freeze and melt requests, applied in order before the next solve.
    pending: Vec<FreezeOp>,
}

// SAFETY: CaDiCaL keeps no thread-local or thread-affine state, so the handle may move to another
// thread together with its owner. `CadicalSolver` is not `Sync` (it holds a raw pointer), so calls
// into one instance never happen from two threads at once. The callback state is an
// `Interrupter`, which is `Send + Sync`.
unsafe impl Send for CadicalSolver {}

impl CadicalSolver {
    /// A fresh solver that polls `interrupter`.
    pub fn new(interrupter: Interrupter) -> CadicalSolver {
        // SAFETY: `ccadical_init` has no preconditions; it returns a new, owned handle.
        let raw = unsafe { ccadical_init() };
        // `new` in C++ never yields null (it throws, which aborts at the C boundary).
        let raw = NonNull::new(raw).expect("ccadical_init returned a null handle");
        let interrupter = Box::new(interrupter);
        let state = &*interrupter as *const Interrupter as *mut c_void;
        // SAFETY: `raw` is a live handle in the configuring state, where connecting a terminator
        // is allowed. `state` stays valid for the handle's lifetime (see `poll_interrupter`).
        unsafe { ccadical_set_terminate(raw.as_ptr(), state, Some(poll_interrupter)) };
        for (name, val) in OPTIONS {
            // SAFETY: the handle is still in the configuring state (nothing added yet), where
            // options may be set; `name` is a valid NUL-terminated option name of CaDiCaL 1.9.5.
            unsafe { ccadical_set_option(raw.as_ptr(), name.as_ptr(), val) };
        }
        CadicalSolver {
            raw,
            interrupter,
            tracker: Tracker::new("cadical"),
            seen: 0,
            pending: Vec::new(),
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
            if freeze {
                // SAFETY: live handle, not in the middle of a clause; `lit` is a valid non-zero
                // literal (`var < MAX_VARS`, checked when queued).
                unsafe { ccadical_freeze(self.raw.as_ptr(), lit) };
            } else {
                // SAFETY: as above; `ccadical_frozen` has no further preconditions, and melting
                // happens only when it says the variable is frozen (CaDiCaL's requirement).
                unsafe {
                    if ccadical_frozen(self.raw.as_ptr(), lit) != 0 {
                        ccadical_melt(self.raw.as_ptr(), lit);
                    }
                }
            }
        }
    }
}

impl Drop for CadicalSolver {
    fn drop(&mut self) {
        // SAFETY: `raw` is owned by `self` and released exactly once, here. No solve is running
        // (that would need `&mut self`). The boxed interrupter is dropped only afterwards.
        unsafe { ccadical_release(self.raw.as_ptr()) };
    }
}

impl Solver for CadicalSolver {
    fn name(&self) -> &'static str {
        "cadical"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            incremental: true,
            assumptions: true,
            core: true,
            interruptible: true,
        }
    }

    fn new_var(&mut self) -> Var {
        self.tracker.new_var()
    }

    fn num_vars(&self) -> u32 {
        self.tracker.num_vars()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.tracker.input();
        if !self.tracker.note(lits) {
            return;
        }
        self.see(lits);
        let raw = self.raw.as_ptr();
        for &lit in lits {
            // SAFETY: live handle; `lit` is a valid non-zero DIMACS literal (its variable is
            // below `MAX_VARS`, checked by `note`). Adding is allowed in every state we leave
            // CaDiCaL in (a clause is always closed below).
            unsafe { ccadical_add(raw, lit.to_dimacs()) };
        }
        // SAFETY: as above; 0 closes the clause (an empty clause makes the formula UNSAT).
        unsafe { ccadical_add(raw, 0) };
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        if let Some(result) = self.tracker.begin(assumptions, &self.interrupter) {
            return result;
        }
        self.see(assumptions);
        self.apply_pending();
        let raw = self.raw.as_ptr();
        for &lit in assumptions {
            // SAFETY: live handle, no open clause; `lit` is valid (checked by `begin`).
            unsafe { ccadical_assume(raw, lit.to_dimacs()) };
        }
        // SAFETY: live handle, no open clause: the ready state `solve` requires. The terminate
        // callback's state is valid (see `poll_interrupter`).
        let answer = unsafe { ccadical_solve(raw) };
        let result = match answer {
            SATISFIABLE => SolveResult::Sat,
            UNSATISFIABLE => SolveResult::Unsat,
            _ => SolveResult::Interrupted,
        };
        self.tracker.finish(result)
    }

    fn value(&self, lit: Lit) -> Result<Option<bool>, SatError> {
        self.tracker.check_model()?;
        if !self.tracker.knows(lit.var()) || lit.var().0 >= self.seen {
            return Ok(None);
        }
        // SAFETY: CaDiCaL is in its SAT state (the last solve answered SAT and nothing was
        // passed to it since: clauses reset the tracker, freeze/melt are queued), which `val`
        // requires; `lit` is valid (`var < seen <= MAX_VARS`).
        let v = unsafe { ccadical_val(self.raw.as_ptr(), lit.to_dimacs()) };
        Ok(Some(v > 0))
    }

    fn failed(&self, lit: Lit) -> Result<bool, SatError> {
        self.tracker.check_failed(lit)?;
        // SAFETY: CaDiCaL is in its UNSAT state (as in `value`), which `failed` requires; `lit`
        // is one of the assumptions of that solve, hence valid.
        let f = unsafe { ccadical_failed(self.raw.as_ptr(), lit.to_dimacs()) };
        Ok(f != 0)
    }

    fn interrupter(&self) -> Interrupter {
        (*self.interrupter).clone()
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
