//! Concrete interpreter of a CFA: the oracle for every UNSAFE verdict.
//!
//! Terms are evaluated with [`crate::bv::Evaluator`], i.e. with `bv::value::apply`, the same
//! operator semantics as constant folding and bit-blasting. The state starts all-zero (the CFA
//! writes every variable before reading it).
//!
//! Nondet values: the values available to one step form *positions* `0, 1, 2, …`, and the
//! `k`-th `Havoc` executed on the path through the taken edge takes the value at position `k`,
//! truncated to its variable's width. At a location, the outgoing edges are tried in order
//! from the same state and the same position 0, and the first whose command completes is
//! taken; within a `Choice`, likewise the first alternative that completes. A command that
//! fails (an `Assume` is false) has no effect, nondet values included. The step then consumes
//! the values at positions below the count its path reached. This is the semantics that
//! [`super::symex`] and the system encoding read symbolically.
//!
//! The values come from one sequence ([`Nondet::Sequence`]: a step's positions start where the
//! previous step's consumed values end, so a failing alternative may read values that a later
//! step consumes) or from one list per step ([`Nondet::PerStep`]: the system's input slots of
//! each step). The two agree on a run when no edge or alternative that fails depends on a value
//! beyond those the taken path consumes, which the CFA's determinism (see [`crate::cfa`])
//! provides. With [`RunOptions::uninit_zero`], a `Havoc` of an uninitialised declaration takes
//! 0 and consumes nothing, so that a sequence lines up with the calls of `__VERIFIER_nondet_*`
//! of a compiled program whose uninitialised locals are 0 (positions are then no longer the
//! system's; a compiled program's locals hold what its stack holds, which is why violation
//! witnesses state the uninitialised values a run reads). [`Nondet::Split`] gives them values of
//! their own instead: the calls' values as one sequence, and per variable the values its
//! uninitialised declaration takes each time it runs (what a counterexample found on a derived
//! CFA gave them), so that the run of the program as written is the counterexample's.

use super::{Cfa, EdgeId, Gcl, Loc, LocKind, PVar, Property};
use crate::bv::{value, Evaluator};
use std::collections::HashMap;

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

/// Where the nondet values of a run come from (see the module doc).
#[derive(Clone, Copy, Debug)]
pub enum Nondet<'a> {
    /// One sequence: the positions of a step start after the values earlier steps consumed.
    Sequence(&'a [u128]),
    /// One list per step: position `k` of step `i` is `steps[i][k]`.
    PerStep(&'a [Vec<u128>]),
    /// One list per step as in `PerStep`, or `None` for a step whose havocs each take the value
    /// their variable had after the last step with a list: the later iterations that a jump of
    /// an accelerated loop stands for ([`super::accel::Accelerated::expand`]).
    Keeping(&'a [Option<Vec<u128>>]),
    /// The values of calls (`HavocKind::is_call`) as one sequence, as in `Sequence`; the `k`-th
    /// havoc of an uninitialised declaration of `v` takes `uninit[v][k]` (0 when there is none)
    /// and consumes nothing of the sequence.
    Split {
        calls: &'a [u128],
        uninit: &'a HashMap<PVar, Vec<u128>>,
    },
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
    nondet: Nondet<'a>,
    /// Where the current step's values start: an index of the sequence, or the step.
    base: usize,
    /// The position of the next value within the step.
    pos: usize,
    opts: RunOptions,
    writes: Vec<(PVar, u128)>,
    taken: Vec<(PVar, u128)>,
    exhausted: bool,
    /// The values after the last step with a list ([`Nondet::Keeping`]).
    kept: Vec<u128>,
    /// Which values come from functions without a definition, when asked for.
    taint: Option<super::taint::Taint>,
    /// How many times each variable's uninitialised declaration ran ([`Nondet::Split`]), and
    /// the variables of those runs in order (to undo them).
    declared: HashMap<PVar, usize>,
    declarations: Vec<PVar>,
}

/// A snapshot to undo a failed command.
struct Mark {
    pos: usize,
    writes: usize,
    taken: usize,
    taint: usize,
    declarations: usize,
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
        if let Some(t) = &mut self.taint {
            t.rollback(m.taint);
        }
        self.pos = m.pos;
        self.writes.truncate(m.writes);
        self.taken.truncate(m.taken);
        for v in self.declarations.drain(m.declarations..) {
            if let Some(n) = self.declared.get_mut(&v) {
                *n -= 1;
            }
        }
        for (v, x) in m.undo.into_iter().rev() {
            self.vals[v.index()] = x;
            self.ev.set(v.var_id(), x);
        }
    }

    /// Executes `g`; returns false (having undone nothing: the caller rolls back) if blocked.
    fn exec(&mut self, g: &Gcl, undo: &mut Vec<(PVar, u128)>) -> bool {
        match g {
            Gcl::Assume(t, _) => {
                if let Some(taint) = &mut self.taint {
                    taint.guard(self.cfa, *t);
                }
                self.ev.eval_bool(*t)
            }
            Gcl::Assign(v, t, _) => {
                if let Some(taint) = &mut self.taint {
                    taint.assign(self.cfa, *v, *t);
                }
                let x = self.ev.eval(*t);
                self.write(*v, x, undo);
                true
            }
            Gcl::Havoc(v, kind, _) => {
                let w = self.cfa.var(*v).ty.width;
                let x = if let (Nondet::Split { uninit, .. }, false) = (self.nondet, kind.is_call())
                {
                    let k = self.declared.entry(*v).or_insert(0);
                    let x = uninit
                        .get(v)
                        .and_then(|xs| xs.get(*k))
                        .copied()
                        .unwrap_or(0);
                    *k += 1;
                    self.declarations.push(*v);
                    value::truncate(x, w)
                } else if self.opts.uninit_zero && !kind.is_call() {
                    0
                } else if let Some(x) = self.value_at(self.pos, *v) {
                    self.pos += 1;
                    value::truncate(x, w)
                } else {
                    self.exhausted = true;
                    return false;
                };
                if let Some(taint) = &mut self.taint {
                    taint.havoc(*v, kind);
                }
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

    /// The value at position `k` of the current step, for a havoc of `v`.
    fn value_at(&self, k: usize, v: PVar) -> Option<u128> {
        match self.nondet {
            Nondet::Sequence(seq) | Nondet::Split { calls: seq, .. } => {
                seq.get(self.base + k).copied()
            }
            Nondet::PerStep(steps) => steps.get(self.base)?.get(k).copied(),
            Nondet::Keeping(steps) => match steps.get(self.base)? {
                Some(values) => values.get(k).copied(),
                None => self.kept.get(v.index()).copied(),
            },
        }
    }

    /// Consumes the values of the step just taken.
    fn commit(&mut self) {
        self.base += match self.nondet {
            Nondet::Sequence(_) | Nondet::Split { .. } => self.pos,
            Nondet::PerStep(_) => 1,
            Nondet::Keeping(steps) => {
                if let (Some(Some(_)), Some(None)) =
                    (steps.get(self.base), steps.get(self.base + 1))
                {
                    self.kept.clone_from(&self.vals);
                }
                1
            }
        };
        self.pos = 0;
    }

    fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            writes: self.writes.len(),
            taken: self.taken.len(),
            taint: self.taint.as_ref().map_or(0, |t| t.mark()),
            declarations: self.declarations.len(),
            undo: Vec::new(),
        }
    }
}

/// Runs `cfa` with options; returns the outcome and the executed steps.
pub fn run_with(cfa: &Cfa, nondet: &[u128], opts: RunOptions) -> (Outcome, Vec<Step>) {
    run_nondet(cfa, Nondet::Sequence(nondet), opts)
}

/// Runs `cfa` with the nondet values from `nondet`; returns the outcome and the executed steps.
pub fn run_nondet(cfa: &Cfa, nondet: Nondet<'_>, opts: RunOptions) -> (Outcome, Vec<Step>) {
    let (outcome, steps, _) = run_machine(cfa, nondet, opts, None);
    (outcome, steps)
}

/// Runs `cfa` on a nondet sequence as [`run_with`] does, and says whether its path depends on
/// a value of a function without a definition (see [`super::taint`]): the first such function
/// a guard read.
pub fn undefined_dependence(
    cfa: &Cfa,
    nondet: &[u128],
    step_limit: usize,
) -> (Outcome, Option<String>) {
    let opts = RunOptions {
        step_limit,
        record: false,
        ..RunOptions::default()
    };
    let taint = Some(super::taint::Taint::new(cfa));
    let (outcome, _, taint) = run_machine(cfa, Nondet::Sequence(nondet), opts, taint);
    (outcome, taint.and_then(|t| t.depends_on))
}

fn run_machine(
    cfa: &Cfa,
    nondet: Nondet<'_>,
    opts: RunOptions,
    taint: Option<super::taint::Taint>,
) -> (Outcome, Vec<Step>, Option<super::taint::Taint>) {
    let out = cfa.out_edges();
    let mut m = Machine {
        cfa,
        ev: Evaluator::new(&cfa.tm),
        vals: vec![0; cfa.vars.len()],
        nondet,
        base: 0,
        pos: 0,
        opts,
        writes: Vec::new(),
        taken: Vec::new(),
        exhausted: false,
        kept: Vec::new(),
        taint,
        declared: HashMap::new(),
        declarations: Vec::new(),
    };
    let mut steps = Vec::new();
    let mut loc = cfa.init;
    let mut count = 0usize;
    loop {
        match cfa.kind(loc) {
            LocKind::Error => {
                let property = cfa.property;
                return (Outcome::Error { property, loc }, steps, m.taint);
            }
            LocKind::Sink(r) => {
                let reason = r.clone();
                return (Outcome::Sink { reason, loc }, steps, m.taint);
            }
            LocKind::Exit => return (Outcome::Exit, steps, m.taint),
            _ => {}
        }
        if count >= opts.step_limit {
            return (Outcome::StepLimit { loc }, steps, m.taint);
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
                return (Outcome::NondetExhausted { loc }, steps, m.taint);
            }
        }
        let Some((e, mk)) = taken else {
            return (Outcome::AssumeFailed { loc }, steps, m.taint);
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
        if let Some(t) = &mut m.taint {
            t.commit();
        }
        m.declarations.clear();
        m.commit();
        count += 1;
        loc = cfa.edge(e).to;
    }
}
