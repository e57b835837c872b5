//! Concrete interpreter of a CFA: the oracle for every UNSAFE verdict.
//!
//! Terms are evaluated with [`crate::bv::Evaluator`], i.e. with `bv::value::apply`, the same
//! operator semantics as constant folding and bit-blasting. The state starts all-zero (the CFA
//! writes every variable before reading it). Each `Havoc` takes the next value of the nondet
//! sequence, truncated to the variable's width; with [`RunOptions::uninit_zero`], a `Havoc` of
//! an uninitialised declaration takes 0 and consumes nothing, so the sequence lines up with the
//! calls of `__VERIFIER_nondet_*` of a compiled program.
//!
//! At a location, the outgoing edges are tried in order and the first whose command completes is
//! taken (the CFA is deterministic, see the module doc of [`crate::cfa`]); within a `Choice`,
//! likewise the first alternative that completes. A command that fails (an `Assume` is false)
//! has no effect, nondet values included.

use super::{Cfa, EdgeId, Gcl, Loc, LocKind, PVar, Property};
use crate::bv::{value, Evaluator};

/// How an execution ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The error location was reached: `property` is violated.
    Error { property: Property, loc: Loc },
    /// An UNKNOWN sink was reached.
    Sink { reason: String, loc: Loc },
    /// The exit location was reached (return from `main`, `exit`, `abort`, …).
    Exit,
    /// No edge could be taken at `loc` (a failed `__VERIFIER_assume` or a blocked path).
    AssumeFailed { loc: Loc },
    /// A `Havoc` needed a value after the sequence was used up.
    NondetExhausted { loc: Loc },
    /// The step limit was reached at `loc`.
    StepLimit { loc: Loc },
}

impl Outcome {
    /// Whether the error location or a sink was reached.
    pub fn is_target(&self) -> bool {
        matches!(self, Outcome::Error { .. } | Outcome::Sink { .. })
    }
}

/// One executed edge with its effects.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Step {
    pub edge: EdgeId,
    /// Every assignment and havoc executed, in order, with the value written.
    pub writes: Vec<(PVar, u128)>,
    /// The nondet values taken by havocs of this edge (after truncation).
    pub nondet: Vec<(PVar, u128)>,
}

/// Options of [`run_with`].
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// The maximal number of edges taken.
    pub step_limit: usize,
    /// A havoc of an uninitialised declaration takes 0 without consuming a nondet value.
    pub uninit_zero: bool,
    /// Record the executed steps (otherwise the returned list is empty).
    pub record: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            step_limit: 100_000,
            uninit_zero: false,
            record: true,
        }
    }
}

/// Runs `cfa` from its initial location; every `Havoc` takes the next nondet value.
pub fn run(cfa: &Cfa, nondet: &[u128], step_limit: usize) -> (Outcome, Vec<Step>) {
    run_with(
        cfa,
        nondet,
        RunOptions {
            step_limit,
            ..RunOptions::default()
        },
    )
}

struct Machine<'a> {
    cfa: &'a Cfa,
    ev: Evaluator<'a>,
    vals: Vec<u128>,
    nondet: &'a [u128],
    next: usize,
    opts: RunOptions,
    writes: Vec<(PVar, u128)>,
    taken: Vec<(PVar, u128)>,
    exhausted: bool,
}

/// A snapshot to undo a failed command.
struct Mark {
    next: usize,
    writes: usize,
    taken: usize,
    undo: Vec<(PVar, u128)>,
}

impl<'a> Machine<'a> {
    fn write(&mut self, v: PVar, x: u128, undo: &mut Vec<(PVar, u128)>) {
        let old = self.vals[v.index()];
        undo.push((v, old));
        self.vals[v.index()] = x;
        self.ev.set(v.var_id(), x);
        self.writes.push((v, x));
    }

    fn rollback(&mut self, m: Mark) {
        self.next = m.next;
        self.writes.truncate(m.writes);
        self.taken.truncate(m.taken);
        for (v, x) in m.undo.into_iter().rev() {
            self.vals[v.index()] = x;
            self.ev.set(v.var_id(), x);
        }
    }

    /// Executes `g`; returns false (having undone nothing: the caller rolls back) if blocked.
    fn exec(&mut self, g: &Gcl, undo: &mut Vec<(PVar, u128)>) -> bool {
        match g {
            Gcl::Assume(t, _) => self.ev.eval_bool(*t),
            Gcl::Assign(v, t, _) => {
                let x = self.ev.eval(*t);
                self.write(*v, x, undo);
                true
            }
            Gcl::Havoc(v, kind, _) => {
                let w = self.cfa.var(*v).ty.width;
                let x = if self.opts.uninit_zero && !kind.is_call() {
                    0
                } else if let Some(&x) = self.nondet.get(self.next) {
                    self.next += 1;
                    value::truncate(x, w)
                } else {
                    self.exhausted = true;
                    return false;
                };
                self.taken.push((*v, x));
                self.write(*v, x, undo);
                true
            }
            Gcl::Seq(gs) => gs.iter().all(|g| self.exec(g, undo)),
            Gcl::Choice(alts) => {
                for a in alts {
                    let m = self.mark();
                    let mut u = Vec::new();
                    if self.exec(a, &mut u) {
                        undo.extend(u);
                        return true;
                    }
                    self.rollback(Mark { undo: u, ..m });
                    if self.exhausted {
                        return false;
                    }
                }
                false
            }
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            next: self.next,
            writes: self.writes.len(),
            taken: self.taken.len(),
            undo: Vec::new(),
        }
    }
}

/// Runs `cfa` with options; returns the outcome and the executed steps.
pub fn run_with(cfa: &Cfa, nondet: &[u128], opts: RunOptions) -> (Outcome, Vec<Step>) {
    let out = cfa.out_edges();
    let mut m = Machine {
        cfa,
        ev: Evaluator::new(&cfa.tm),
        vals: vec![0; cfa.vars.len()],
        nondet,
        next: 0,
        opts,
        writes: Vec::new(),
        taken: Vec::new(),
        exhausted: false,
    };
    let mut steps = Vec::new();
    let mut loc = cfa.init;
    let mut count = 0usize;
    loop {
        match cfa.kind(loc) {
            LocKind::Error => {
                return (
                    Outcome::Error {
                        property: cfa.property,
                        loc,
                    },
                    steps,
                )
            }
            LocKind::Sink(r) => {
                return (
                    Outcome::Sink {
                        reason: r.clone(),
                        loc,
                    },
                    steps,
                )
            }
            LocKind::Exit => return (Outcome::Exit, steps),
            _ => {}
        }
        if count >= opts.step_limit {
            return (Outcome::StepLimit { loc }, steps);
        }
        let mut taken = None;
        for &e in out.get(loc.index()).map(|v| v.as_slice()).unwrap_or(&[]) {
            let mk = m.mark();
            let mut undo = Vec::new();
            if m.exec(&cfa.edge(e).cmd, &mut undo) {
                taken = Some((e, mk));
                break;
            }
            m.rollback(Mark { undo, ..mk });
            if m.exhausted {
                return (Outcome::NondetExhausted { loc }, steps);
            }
        }
        let Some((e, mk)) = taken else {
            return (Outcome::AssumeFailed { loc }, steps);
        };
        if opts.record {
            steps.push(Step {
                edge: e,
                writes: m.writes[mk.writes..].to_vec(),
                nondet: m.taken[mk.taken..].to_vec(),
            });
        }
        m.writes.clear();
        m.taken.clear();
        count += 1;
        loc = cfa.edge(e).to;
    }
}
