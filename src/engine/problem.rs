//! What an engine is given, and the one interface every engine implements.
//!
//! A [`Problem`] is a bit-level [`System`] and, when the system encodes a C program, that
//! program's control-flow automaton and encoding ([`Program`]); engines over the automaton
//! (IC3CFA) need the second, the others use the first. An [`Engine`] is an engine with its
//! options (each engine's option table implements it): the portfolio, `verify` and `solve` run
//! every engine through it, so a new engine is one `impl Engine` and one line in
//! [`super::registry`], which lists the engines.

use super::{Options, ProgressFn, Stats, Unknown, Verdict};
use crate::cfa::Cfa;
use crate::ts::program::ProgramSystem;
use crate::ts::System;

/// A C program as engines that work on its control-flow automaton see it: the CFA and its
/// system (whose variables their verdicts are about).
#[derive(Clone, Copy)]
pub struct Program<'a> {
    pub cfa: &'a Cfa,
    pub ps: &'a ProgramSystem,
}

/// What an engine works on. Invariant: the program, when there is one, is the one `sys`
/// encodes (`sys` is `program.ps.sys`), so an engine may answer about either.
#[derive(Clone, Copy)]
pub struct Problem<'a> {
    sys: &'a System,
    program: Option<Program<'a>>,
}

impl<'a> Problem<'a> {
    /// A bit-level system alone (DimSpec, AIGER, or a system derived from a program's).
    pub fn system(sys: &'a System) -> Problem<'a> {
        Problem { sys, program: None }
    }

    /// A C program and its system.
    pub fn program(program: Program<'a>) -> Problem<'a> {
        Problem {
            sys: &program.ps.sys,
            program: Some(program),
        }
    }

    /// `sys`, with `program` when `sys` is the program's own system (a system derived from it,
    /// such as a preprocessed one, is a system alone).
    pub fn of(sys: &'a System, program: Option<Program<'a>>) -> Problem<'a> {
        match program {
            Some(p) if std::ptr::eq(sys, &p.ps.sys) => Problem::program(p),
            _ => Problem::system(sys),
        }
    }

    /// The bit-level system: every engine's verdict is about it.
    pub fn sys(&self) -> &'a System {
        self.sys
    }

    /// The program `sys` encodes, if any.
    pub fn program_of(&self) -> Option<Program<'a>> {
        self.program
    }
}

/// An engine with its options, ready to run on a [`Problem`]. Engines poll `opts.interrupter`
/// (their SAT solvers poll it too), report progress through `progress`, never print, and return
/// a verdict about `problem.sys()` for the caller to check, with their statistics.
pub trait Engine: Send + Sync {
    /// Runs on `problem`; an engine that needs what the problem lacks (IC3CFA without a
    /// program) answers UNKNOWN and says why.
    fn run(
        &self,
        problem: &Problem<'_>,
        opts: &Options,
        progress: ProgressFn<'_>,
    ) -> (Verdict, Stats);

    /// Why the engine, so configured, would add nothing on `problem` to what other engines
    /// do (`None` when it would): a portfolio leaves such a member out of its race, and the
    /// engine run alone answers UNKNOWN with that reason. Only options that say so make an
    /// engine idle (`euf:only-abstract` on a program with nothing to abstract, where it would
    /// be PDR).
    fn idle(&self, _problem: &Problem<'_>) -> Option<String> {
        None
    }
}

/// An engine that works on the bit-level system alone (BMC, k-induction, PDR): it runs on
/// the problem's system, whatever else the problem has.
pub trait SystemEngine: Send + Sync {
    /// Runs on `sys`.
    fn run_on(&self, sys: &System, opts: &Options, progress: ProgressFn<'_>) -> (Verdict, Stats);
}

impl<T: SystemEngine> Engine for T {
    fn run(
        &self,
        problem: &Problem<'_>,
        opts: &Options,
        progress: ProgressFn<'_>,
    ) -> (Verdict, Stats) {
        self.run_on(problem.sys(), opts, progress)
    }
}

/// Why `engine`, which needs a program, cannot run on a system alone.
pub fn no_program_reason(engine: &str) -> String {
    format!(
        "{engine} works on a C program's control-flow automaton, and DimSpec and AIGER inputs have none"
    )
}

/// Runs `engine`, which needs a program, on the problem's program; given a system alone, it
/// answers UNKNOWN and says why.
pub fn on_program(
    problem: &Problem<'_>,
    engine: &str,
    run: impl FnOnce(Program<'_>) -> (Verdict, Stats),
) -> (Verdict, Stats) {
    match problem.program_of() {
        Some(p) => run(p),
        None => (
            Verdict::Unknown(Unknown::incomplete(no_program_reason(engine))),
            Stats::new(),
        ),
    }
}
